import type { Circus } from '@jest/types';
import NodeEnvironment from 'jest-environment-node';
import { CLOSE_RUNNING_APPS } from './running-apps';
import { SETUP_HOOK_TIMEOUT_MS } from './timing';

/**
 * The end-to-end test environment: Node's, plus three rules for a file's setup.
 * - `beforeAll`/`afterAll` hooks without a timeout of their own get {@link SETUP_HOOK_TIMEOUT_MS}
 *   (a boot on a loaded machine takes many times the quiet figure); tests keep jest's testTimeout.
 * - A `beforeAll` that fails is reported once, as the failure of the first test under it, saying
 *   why; the other tests are skipped rather than each failing with the same error, and failures
 *   of the hooks that ran after it in that block (an `afterAll` closing an app that never started,
 *   say) are dropped as consequences.
 * - When the file's hooks are done, apps still booting or left open are closed
 *   (test/support/running-apps.ts), so no boot outlives the file.
 */
export default class E2eEnvironment extends NodeEnvironment {
  private readonly failedSetups = new Set<Circus.DescribeBlock>();

  async handleTestEvent(event: Circus.Event, state: Circus.State): Promise<void> {
    if (event.name === 'add_hook') {
      const hook = state.currentDescribeBlock.hooks.at(-1);
      if (hook && hook.timeout === undefined && (hook.type === 'beforeAll' || hook.type === 'afterAll'))
        hook.timeout = SETUP_HOOK_TIMEOUT_MS;
    } else if (event.name === 'hook_failure' && event.describeBlock) {
      this.hookFailed(event.describeBlock, event.hook, event.error, state);
    } else if (event.name === 'run_describe_finish' && !event.describeBlock.parent) {
      const closeRunningApps = (this.global as Record<symbol, unknown>)[CLOSE_RUNNING_APPS] as (() => Promise<void>) | undefined;
      await closeRunningApps?.().catch((error: unknown) => state.unhandledErrors.push(error as Circus.Exception));
    }
  }

  private hookFailed(block: Circus.DescribeBlock, hook: Circus.Hook, error: Circus.Exception, state: Circus.State): void {
    const consequence = this.withinFailedSetup(block);
    if (!consequence && hook.type !== 'beforeAll') return;
    // jest has just recorded the error: on every test under the block (beforeAll) or as the file's (afterAll).
    forEachTest(block, (test) => (test.errors = test.errors.filter((recorded) => !isRecord(recorded, error))));
    const index = state.unhandledErrors.findIndex((recorded) => isRecord(recorded, error));
    if (index >= 0) state.unhandledErrors.splice(index, 1);
    if (consequence) return;
    this.failedSetups.add(block);
    // One test of the block carries the failure (jest neither runs it nor reports a file whose tests
    // were all skipped as failed); the others are skipped.
    const carrier = firstSelectedTest(block, state);
    forEachTest(block, (test) => {
      if (test === carrier) test.errors.push(setupFailure(block, hook, error));
      else test.mode = 'skip';
    });
    if (!carrier) state.unhandledErrors.push(setupFailure(block, hook, error));
  }

  private withinFailedSetup(block: Circus.DescribeBlock | undefined): boolean {
    for (; block; block = block.parent) if (this.failedSetups.has(block)) return true;
    return false;
  }
}

/** The error a failed beforeAll is reported with: which block, how many tests it kept from running, and why. */
function setupFailure(block: Circus.DescribeBlock, hook: Circus.Hook, error: Circus.Exception): Error {
  let tests = 0;
  forEachTest(block, () => tests++);
  const where = block.parent ? `"${block.name}"` : 'the file';
  const failure = new Error(`beforeAll of ${where} failed, so its ${tests} tests did not run`);
  // A timeout is reported as a bare string; the hook's own stack says where it was declared.
  const cause =
    error instanceof Error
      ? (error.stack ?? error.message)
      : `${String(error)}\n${hook.asyncError?.stack?.split('\n').slice(1).join('\n') ?? ''}`;
  failure.stack = `Error: ${failure.message}:\n${cause}`;
  return failure;
}

/** The first test under the block that this run would run (not skipped, focused away or filtered out by name). */
function firstSelectedTest(block: Circus.DescribeBlock, state: Circus.State): Circus.TestEntry | undefined {
  let first: Circus.TestEntry | undefined;
  forEachTest(block, (test) => {
    if (first || test.mode === 'skip' || test.mode === 'todo' || (state.hasFocusedTests && test.mode !== 'only')) return;
    if (state.testNamePattern && !state.testNamePattern.test(testId(test))) return;
    first = test;
  });
  return first;
}

/** A test's full name as jest matches it against --testNamePattern. */
function testId(test: Circus.TestEntry): string {
  const names = [test.name];
  for (let block = test.parent; block.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

function forEachTest(block: Circus.DescribeBlock, visit: (test: Circus.TestEntry) => void): void {
  for (const child of block.children) {
    if (child.type === 'describeBlock') forEachTest(child, visit);
    else visit(child);
  }
}

// Circus.Exception is `any`: the recorded value is either the error or a pair holding it first.
function isRecord(recorded: unknown, error: unknown): boolean {
  return Array.isArray(recorded) ? recorded[0] === error : recorded === error;
}
