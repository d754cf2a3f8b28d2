import SystemIO

/// The file system downloads write through (`DownloadConfiguration.fileSystem`): SystemIO's,
/// which tests wrap to fill the disk or make a directory unwritable.
public typealias DownloadFileSystem = SystemIO.FileSystem
/// The real file system.
public typealias POSIXFileSystem = SystemIO.POSIXFileSystem
