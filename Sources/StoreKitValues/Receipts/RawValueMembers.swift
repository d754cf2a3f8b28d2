/// A model of Apple's that keeps its enumerations as the raw values the JSON carries
/// (`rawType`), so a value newer than this build survives a round trip, and shows each one
/// through a typed member (`type`). The typed members read and write through `self[typed:]`,
/// the one place that turns a raw value into its enumeration and back; those of a protocol
/// extension (`JWSSharedFields`) convert in place, as a key path there is built at each call.
public protocol RawValueMembers {}

extension RawValueMembers {
    /// The member at `raw` as a `Value`: nil when it is absent or a value this build does not
    /// know. Setting it writes the value's raw value (nil removes it).
    public subscript<Value: RawRepresentable>(typed raw: WritableKeyPath<Self, Value.RawValue?>) -> Value? {
        get { self[keyPath: raw].flatMap(Value.init(rawValue:)) }
        set { self[keyPath: raw] = newValue?.rawValue }
    }
}
