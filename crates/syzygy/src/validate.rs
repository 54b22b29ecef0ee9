//! Checks a table file before the prober may map it.
//!
//! The prober (like every Syzygy prober) trusts the file: a truncated or
//! corrupted table makes it read outside the mapping or follow garbage offsets,
//! which is a crash or undefined behaviour, or silently wrong results. So every
//! file is checked first: its size (16 more than a multiple of 64, as the
//! generator writes it), its magic number, and, with [`Verify::Checksum`], the
//! checksum in its last 16 bytes over the whole file.

use crate::checksum;
use crate::material::{material_pieces, name_key};
use std::fmt;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

/// How thoroughly table files are checked when they are loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Verify {
    /// Size, magic number and the embedded checksum (reads every byte once at
    /// load time). The default: only this makes a corrupted file safe.
    #[default]
    Checksum,
    /// Size and magic number only: instant even for 6-piece sets, but a file
    /// corrupted inside (same size, flipped bytes) is not detected.
    Header,
}

/// What is wrong with a table file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableProblem {
    /// The file could not be opened or read.
    Unreadable(String),
    /// The size is not what the generator writes (truncated, or extended).
    BadSize {
        /// The file's size in bytes.
        size: u64,
    },
    /// The first four bytes are not the magic number of its kind of table.
    BadMagic,
    /// The checksum over the contents does not match the stored one.
    ChecksumMismatch,
}

impl fmt::Display for TableProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableProblem::Unreadable(e) => write!(f, "unreadable ({e})"),
            TableProblem::BadSize { size } => {
                write!(f, "size {size} is not 16 more than a multiple of 64 (truncated?)")
            }
            TableProblem::BadMagic => write!(f, "not a Syzygy table (bad magic number)"),
            TableProblem::ChecksumMismatch => write!(f, "corrupted (checksum mismatch)"),
        }
    }
}

/// A table file that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub problem: TableProblem,
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

/// The two kinds of table the prober uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    /// `.rtbw`: win/draw/loss, probed during the search.
    Wdl,
    /// `.rtbz`: distance to zeroing, probed at the root.
    Dtz,
}

impl Kind {
    pub(crate) fn extension(self) -> &'static str {
        match self {
            Kind::Wdl => "rtbw",
            Kind::Dtz => "rtbz",
        }
    }

    fn magic(self) -> [u8; 4] {
        match self {
            Kind::Wdl => 0x5d23_e871u32.to_le_bytes(),
            Kind::Dtz => 0xa50c_66d7u32.to_le_bytes(),
        }
    }
}

/// A file in a tablebase folder whose name is a table's name.
#[derive(Clone, Debug)]
pub(crate) struct TableFile {
    /// The material, e.g. `KQvKR`.
    pub(crate) material: String,
    /// Its key (see `material_key`) and number of pieces.
    pub(crate) key: u32,
    pub(crate) pieces: u32,
    pub(crate) kind: Kind,
    pub(crate) path: PathBuf,
}

impl TableFile {
    pub(crate) fn file_name(&self) -> String {
        format!("{}.{}", self.material, self.kind.extension())
    }
}

/// The table files of a folder, in name order (not recursive).
pub(crate) fn scan(folder: &Path) -> io::Result<Vec<TableFile>> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let path = entry?.path();
        let (Some(stem), Some(ext)) =
            (path.file_stem().and_then(|s| s.to_str()), path.extension().and_then(|s| s.to_str()))
        else {
            continue;
        };
        let kind = match ext {
            "rtbw" => Kind::Wdl,
            "rtbz" => Kind::Dtz,
            _ => continue,
        };
        if let (Some(pieces), Some(key)) = (material_pieces(stem), name_key(stem))
            && pieces >= 3
        {
            found.push(TableFile { material: stem.to_string(), key, pieces, kind, path });
        }
    }
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

/// Checks one table file.
pub(crate) fn check(candidate: &TableFile, verify: Verify) -> Result<(), TableProblem> {
    let unreadable = |e: io::Error| TableProblem::Unreadable(e.to_string());
    // Only a regular file, opened without waiting (a FIFO would block a plain open).
    let open = || {
        infile::InputFile::open(&candidate.path)
            .map_err(|e| TableProblem::Unreadable(e.reason.to_string()))
    };
    let file = open()?;
    let size = file.len();
    let file = file.into_file();
    if size % 64 != 16 || size < 80 {
        return Err(TableProblem::BadSize { size });
    }
    let mut reader = BufReader::with_capacity(1 << 16, file);
    let mut magic = [0u8; 4];
    reader.read_exact(&mut magic).map_err(unreadable)?;
    if magic != candidate.kind.magic() {
        return Err(TableProblem::BadMagic);
    }
    if verify == Verify::Checksum {
        // Read again from the start: the checksum covers the magic too.
        let mut file = open()?.into_file();
        if !checksum::verify(&mut file, size).map_err(unreadable)? {
            return Err(TableProblem::ChecksumMismatch);
        }
    }
    Ok(())
}
