"""Runs the Python suite and ends with the plain 'N passed, N failed' line."""
import pathlib
import sys
import unittest

suite = unittest.defaultTestLoader.discover(str(pathlib.Path(__file__).parent), pattern="test_*.py")
result = unittest.TextTestRunner(verbosity=2).run(suite)
failed = len(result.failures) + len(result.errors)
print(f"python-suite: {result.testsRun - failed} passed, {failed} failed")
sys.exit(0 if result.wasSuccessful() and result.testsRun > 0 else 1)
