import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that start servers or CLIs as processes, or walk every route, run for tens of seconds
 * where the rest take a few: started last on a clean clone (no timing cache), one of them can
 * hold a worker after every other file is done. They start first, longest first; the rest
 * follow in vitest's own order.
 */
const SLOW_FIRST = [
  'test/startup.test.ts',
  'test/reliability/shutdown.test.ts',
  'test/reliability/route-fuzz.test.ts',
  'test/cli.test.ts',
  'test/process.test.ts',
  'test/reliability/tracing.test.ts',
  'test/browser/cors.browser.test.ts',
  'test/reliability/database-crash.test.ts',
  'test/http/database-restart.test.ts',
  'test/dev/idp.test.ts',
  'test/bootstrap.test.ts',
];

const rank = (spec: TestSpecification) => {
  const i = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(path));
  return i < 0 ? SLOW_FIRST.length : i;
};

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rest = await super.sort(files.filter((f) => rank(f) === SLOW_FIRST.length));
    return [...files.filter((f) => rank(f) < SLOW_FIRST.length).sort((a, b) => rank(a) - rank(b)), ...rest];
  }
}
