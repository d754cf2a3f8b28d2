"""The Python suite's one runner (run by EndToEndTests.PythonSuiteTests and `make python-suite`):
discovers Tests/Python/test_*.py and ends with the plain 'python-suite: N passed, N failed' line.
A skipped test counts as failed: every test here must run."""
import pathlib
import sys
import unittest

suite = unittest.defaultTestLoader.discover(str(pathlib.Path(__file__).parent), pattern="test_*.py")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors) + len(result.skipped) + len(result.unexpectedSuccesses)
print(f"python-suite: {result.testsRun - failed} passed, {failed} failed")
sys.exit(0 if result.wasSuccessful() and failed == 0 and result.testsRun > 0 else 1)
