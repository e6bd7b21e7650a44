#!/usr/bin/env node
// `npm run test:unit|test:e2e -- [files…] [jest options…]`: jest on one project. The project is
// selected after the caller's arguments: `--selectProjects` takes every value that follows it, so
// a path given after it would be read as another project's name.
const { spawnSync } = require('node:child_process');

const [project, ...args] = process.argv.slice(2);
const result = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), ...args, '--selectProjects', project], { stdio: 'inherit' });
process.exit(result.status ?? 1);
