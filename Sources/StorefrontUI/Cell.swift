/// One cell of the terminal grid: a character with colors and attributes.
public struct Cell: Hashable, Sendable {
    public var character: Character
    public init(_ character: Character = " ") { self.character = character }
}
