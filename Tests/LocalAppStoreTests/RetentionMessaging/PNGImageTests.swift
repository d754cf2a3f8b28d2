import Foundation
import TestSupport
import Testing

@testable import LocalAppStore

/// What the store checks of an uploaded PNG, each refusal naming what is wrong.
struct PNGImageTests {
    @Test func crcMatchesTheStandardsCheckValues() {
        // ISO 3309's check value, and the CRC every PNG's empty IEND chunk carries.
        #expect(PNGImage.crc32(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(PNGImage.crc32(Array("IEND".utf8)[...]) == 0xAE42_6082)
        #expect(PNGFile.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
    }

    @Test func readsTheSizeOfOpaqueImages() throws {
        for color: UInt8 in [0, 2, 3] {
            let image = try PNGImage(PNGFile.make(width: 96, height: 64, colorType: color))
            #expect(image.width == 96 && image.height == 64 && image.colorType == color)
        }
    }

    @Test(
        arguments: [
            (Data("GIF89a".utf8), "it is not a PNG file (Apple accepts PNG only)"),
            (
                PNGFile.make(width: 8, height: 8, colorType: 6),
                "it has an alpha channel; Apple accepts images without transparency only"
            ),
            (
                PNGFile.make(width: 8, height: 8, colorType: 4),
                "it has an alpha channel; Apple accepts images without transparency only"
            ),
            (
                PNGFile.make(width: 8, height: 8, colorType: 2, extraChunks: [("tRNS", [0, 0, 0, 0, 0, 0])]),
                "it has transparency (a tRNS chunk); Apple accepts opaque images only"
            ),
            (PNGFile.make(width: 8, height: 8).dropLast(12), "it has no IEND chunk (the file is cut short)"),
            (PNGFile.make(width: 8, height: 8).dropLast(5), "the file ends inside a chunk"),
            (PNGFile.make(width: 8, height: 8) + Data([0]), "there are bytes after the IEND chunk"),
        ])
    func refusesWhatApplesRulesRefuse(_ bytes: Data, _ why: String) {
        #expect(throws: RetentionMessagingError.invalidImage(why)) { try PNGImage(bytes) }
    }

    @Test func aDamagedChunkIsReportedByItsCRC() {
        // 8 bytes of signature and 25 of IHDR: the image data's chunk begins at 33, its type at 37.
        var bytes = [UInt8](PNGFile.make(width: 8, height: 8))
        bytes[45] ^= 0xFF
        #expect(
            throws: RetentionMessagingError.invalidImage(
                "the IDAT chunk's CRC does not match its bytes (the file is damaged)")
        ) {
            try PNGImage(Data(bytes))
        }
        bytes[45] ^= 0xFF
        bytes[40] = 0xAB
        #expect(
            throws: RetentionMessagingError.invalidImage(
                "the 0x494441AB chunk's CRC does not match its bytes (the file is damaged)")
        ) {
            try PNGImage(Data(bytes))
        }
    }
}
