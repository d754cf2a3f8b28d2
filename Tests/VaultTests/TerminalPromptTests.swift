import Crypto
import Foundation
import TestSupport
import Testing

@testable import Vault

/// The passphrase asked at a real terminal: `vault-torture read` runs on a pseudo-terminal
/// (python's `pty`), which types the passphrase.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10))) struct TerminalPromptTests {
    static let driver = """
        import os, pty, select, sys
        pid, fd = pty.fork()
        if pid == 0:
            os.execv(sys.argv[1], [sys.argv[1], 'read', sys.argv[2]])
        out = b''
        def pump(until):
            # 'found', 'closed' (the child let go of the terminal: it is exiting) or 'stuck'
            global out
            while until not in out:
                ready, _, _ = select.select([fd], [], [], 30)
                if not ready:
                    return 'stuck'
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    return 'closed'
                if not chunk:
                    return 'closed'
                out += chunk
            return 'found'
        if pump(b'Passphrase for ') == 'found':
            os.write(fd, sys.argv[3].encode() + b'\\n')
        if pump(b'\\x00never') == 'stuck':
            os.kill(pid, 9)  # never hang the suite: a child still waiting for input has failed
        _, status = os.waitpid(pid, 0)
        sys.stdout.buffer.write(out)
        sys.exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 99)
        """

    func run(_ vault: URL, typing passphrase: String) throws -> (status: Int32, output: String) {
        let result = try ChildProcess.run(
            .tool("python3"), ["-c", Self.driver, TortureProcess.executable.path, vault.path, passphrase],
            environment: ["STOREFRONT_PASSPHRASE": ""], unsetting: TortureProcess.unset, standardError: .discard)
        return (result.status, result.stdout)
    }

    @Test func asksWithoutEchoAndUnlocks() throws {
        let dir = try TemporaryDirectory()
        let vault = try Vault(
            at: dir.vault, key: .passphrase(SecureBytes(Array("tty-secret-42".utf8))),
            configuration: testConfiguration())
        try vault.add(service: "s", account: "a", content("opened"))

        let right = try run(dir.vault, typing: "tty-secret-42")
        #expect(right.status == 0, "\(right.output)")
        #expect(right.output.contains("Passphrase for \(dir.vault.path): "))
        #expect(right.output.contains("s/a=opened"))
        #expect(!right.output.contains("tty-secret-42"), "the passphrase was echoed")

        let wrong = try run(dir.vault, typing: "not-it")
        #expect(wrong.status == 2)
        #expect(wrong.output.contains("wrong key or passphrase"))
        #expect(!wrong.output.contains("not-it"))
    }
}
