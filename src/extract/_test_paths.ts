// Test code is not the service: a route a test declares (a fake server, a
// fixture app) is no port of the system. Which files are test code, by
// their path, across the languages the scan reads. Load-test and e2e
// clients stay: only server ports of test files are left out.

/** A folder that holds tests (`test/`, `tests/`, `__tests__/`, Maven's `src/test/`). */
const TEST_FOLDER = /(?:^|\/)(?:tests?|__tests__)\//;

/** RSpec's folder: only its Ruby files (a `spec/` folder often holds API specifications). */
const RSPEC_FOLDER = /(?:^|\/)spec\/(?:.*\/)?[^/]*\.rb$/;

/** A test file by its name, in each language's convention. */
const TEST_FILE =
  /(?:\.(?:test|spec)\.[cm]?[jt]sx?|_test\.go|_test\.py|_test\.exs|_spec\.rb|_test\.rb|Tests?\.(?:java|kt|cs)|Spec\.(?:kt|java|scala))$|(?:^|\/)(?:test_[^/]*\.py|conftest\.py|tests\.py)$/;

/**
 * Whether a file (relative to the scan root, `/`-separated) is test code:
 * in a test folder (`test/`, `tests/`, `__tests__/`; `spec/` for Ruby) or
 * named as a test.
 */
export function isTestPath(path: string): boolean {
  return TEST_FOLDER.test(path) || RSPEC_FOLDER.test(path) ||
    TEST_FILE.test(path);
}
