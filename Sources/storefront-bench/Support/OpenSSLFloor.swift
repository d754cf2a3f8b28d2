import Foundation

/// The least OpenSSL can cost a process that does what one `storefront buy` must do with it,
/// measured in the same run: a C program, compiled here by the machine's `cc` against the
/// libcrypto the storefront loads, that initializes OpenSSL as `CryptoLibrary` does (no
/// configuration file, no exit-time clean-up), seals one 200-byte record with AES-256-GCM under
/// a random nonce (the vault's write), hashes it with SHA-256 and makes one ES256 signature
/// with a P-256 key imported from its 32-byte private scalar (the JWS; OpenSSL 3's cheapest
/// import: `EVP_PKEY_fromdata`, no decoder, where `d2i_PrivateKey` costs ~5 M instructions more). Its cost is the program's less the same program's
/// exiting before its first call into OpenSSL: OpenSSL 3's first use (its configuration,
/// its provider's algorithm tables, its random generator), which no caller can leave out.
struct OpenSSLFloor {
    /// The compiled program.
    let binary: String
    /// The file of the private scalar it signs with.
    let key: String

    /// The program's text: `floor KEY work` does the work, `floor KEY` exits before OpenSSL,
    /// `floor KEY make-key` writes a new key.
    static let source = """
        #include <openssl/core_names.h>
        #include <openssl/crypto.h>
        #include <openssl/ec.h>
        #include <openssl/evp.h>
        #include <openssl/param_build.h>
        #include <openssl/rand.h>
        #include <stdio.h>
        #include <string.h>

        int main(int argc, char **argv) {
            if (argc < 3) return 0;
            if (OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_NO_LOAD_CONFIG, NULL) != 1) return 2;
            unsigned char scalar[32];
            if (strcmp(argv[2], "make-key") == 0) {
                EVP_PKEY *made = EVP_EC_gen("P-256");
                BIGNUM *secret = NULL;
                FILE *out = fopen(argv[1], "wb");
                if (made == NULL || out == NULL || EVP_PKEY_get_bn_param(made, OSSL_PKEY_PARAM_PRIV_KEY, &secret) != 1
                    || BN_bn2binpad(secret, scalar, sizeof scalar) != sizeof scalar
                    || fwrite(scalar, 1, sizeof scalar, out) != sizeof scalar) return 3;
                return fclose(out) == 0 ? 0 : 3;
            }
            unsigned char key[32], nonce[12], record[200], sealed[216], tag[16], digest[32], signature[80];
            memset(record, 0x5a, sizeof record);
            if (RAND_bytes(key, sizeof key) != 1 || RAND_bytes(nonce, sizeof nonce) != 1) return 4;
            EVP_CIPHER *cipher = EVP_CIPHER_fetch(NULL, "AES-256-GCM", NULL);
            EVP_CIPHER_CTX *seal = EVP_CIPHER_CTX_new();
            int length = 0, final = 0;
            if (cipher == NULL || seal == NULL || EVP_EncryptInit_ex2(seal, cipher, key, nonce, NULL) != 1
                || EVP_EncryptUpdate(seal, sealed, &length, record, sizeof record) != 1
                || EVP_EncryptFinal_ex(seal, sealed + length, &final) != 1
                || EVP_CIPHER_CTX_ctrl(seal, EVP_CTRL_GCM_GET_TAG, sizeof tag, tag) != 1) return 5;
            unsigned int digestLength = 0;
            if (EVP_Digest(sealed, length + final, digest, &digestLength, EVP_sha256(), NULL) != 1) return 6;
            FILE *in = fopen(argv[1], "rb");
            if (in == NULL || fread(scalar, 1, sizeof scalar, in) != sizeof scalar) return 7;
            OSSL_PARAM_BLD *build = OSSL_PARAM_BLD_new();
            BIGNUM *secret = BN_bin2bn(scalar, sizeof scalar, NULL);
            if (build == NULL || secret == NULL
                || OSSL_PARAM_BLD_push_utf8_string(build, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) != 1
                || OSSL_PARAM_BLD_push_BN(build, OSSL_PKEY_PARAM_PRIV_KEY, secret) != 1) return 7;
            OSSL_PARAM *parameters = OSSL_PARAM_BLD_to_param(build);
            EVP_PKEY_CTX *import = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
            EVP_PKEY *signer = NULL;
            if (parameters == NULL || import == NULL || EVP_PKEY_fromdata_init(import) != 1
                || EVP_PKEY_fromdata(import, &signer, EVP_PKEY_KEYPAIR, parameters) != 1) return 7;
            EVP_MD_CTX *sign = EVP_MD_CTX_new();
            size_t signatureLength = sizeof signature;
            if (sign == NULL || EVP_DigestSignInit(sign, NULL, EVP_sha256(), NULL, signer) != 1
                || EVP_DigestSign(sign, signature, &signatureLength, record, sizeof record) != 1) return 8;
            return signatureLength > 0 ? 0 : 9;
        }
        """

    /// Compiles the program and makes its key in `directory`; nil when there is no `cc` or it
    /// cannot build against libcrypto here.
    static func build(in directory: URL) -> OpenSSLFloor? {
        let source = directory.appendingPathComponent("openssl-floor.c")
        let binary = directory.appendingPathComponent("openssl-floor").path
        let key = directory.appendingPathComponent("openssl-floor-key.bin").path
        do {
            try Data(Self.source.utf8).write(to: source)
            try ChildProcess.run("cc", ["-O2", "-o", binary, source.path, "-lcrypto"])
            _ = try CommandTiming.run(binary, [key, "make-key"])
        } catch {
            return nil
        }
        return OpenSSLFloor(binary: binary, key: key)
    }

    /// OpenSSL's share of the program's instructions (the work less the early exit); nil
    /// without valgrind.
    func instructions() throws -> UInt64? {
        guard let work = try Callgrind.instructions(binary, [key, "work"]),
            let empty = try Callgrind.instructions(binary, [key])
        else { return nil }
        return work > empty ? work - empty : 0
    }

    /// OpenSSL's share of the program's CPU time: the median of `runs` of each, less.
    func cpu(runs: Int = 11) throws -> Double {
        let work = CommandTiming.median(try (0..<runs).map { _ in try CommandTiming.run(binary, [key, "work"]).cpu })
        let empty = CommandTiming.median(try (0..<runs).map { _ in try CommandTiming.run(binary, [key]).cpu })
        return max(work - empty, 0)
    }
}
