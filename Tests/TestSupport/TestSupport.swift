/// Shared test support: every test target imports this module for temporary directories,
/// child processes, hashing, the Python servers and waits on a `ManualClock`.
public enum TestSupport {}
