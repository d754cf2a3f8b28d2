import StoreKitValues
import Testing

@Suite struct ContentFileTests {
    @Test(arguments: [
        "a", "levels/01.json", "...", ".hidden", "a/.b/c..", "dir/...../x", "é/ü.png", "a.\u{301}/b",
    ])
    func aRelativePathInsideTheContentIsAccepted(_ path: String) {
        #expect(ContentFile.pathProblem(path) == nil)
    }

    @Test(arguments: [
        ("", "the path is empty"),
        ("/etc/passwd", "the path \"/etc/passwd\" is absolute; expected a path inside the content"),
        (".", "the path \".\" has an empty, \".\" or \"..\" component"),
        ("..", "the path \"..\" has an empty, \".\" or \"..\" component"),
        ("../x", "the path \"../x\" has an empty, \".\" or \"..\" component"),
        ("a/./b", "the path \"a/./b\" has an empty, \".\" or \"..\" component"),
        ("a/..", "the path \"a/..\" has an empty, \".\" or \"..\" component"),
        ("a//b", "the path \"a//b\" has an empty, \".\" or \"..\" component"),
        ("a/", "the path \"a/\" has an empty, \".\" or \"..\" component"),
        ("a\u{0}b", "the path contains a NUL byte"),
        ("../a\u{0}", "the path \"../a\u{0}\" has an empty, \".\" or \"..\" component"),
    ])
    func aPathThatLeavesTheContentIsRefusedSayingWhy(_ path: String, _ problem: String) {
        #expect(ContentFile.pathProblem(path) == problem)
    }
}
