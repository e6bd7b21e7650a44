#!/usr/bin/env node
import { runCli } from './program';

// exitCode rather than process.exit(): the latter could cut off output still buffered for a pipe.
void runCli(process.argv, process.env).then((status) => {
  process.exitCode = status;
});
