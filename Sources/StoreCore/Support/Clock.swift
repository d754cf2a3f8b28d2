import SystemIO

/// The engine's source of time (`SystemClock`, or `ManualClock` in tests); defined once in
/// `SystemIO`, named here so an app that imports only StoreCore can inject one.
public typealias StoreClock = SystemIO.StoreClock
/// Real time.
public typealias SystemClock = SystemIO.SystemClock
/// A clock that moves only when told to.
public typealias ManualClock = SystemIO.ManualClock
