//! A private folder of links to the table files that passed validation.
//!
//! The prober opens tables by name in the folders it is given, so a bad file in
//! a user's folder cannot be skipped by passing that folder. Instead every good
//! file is linked (symbolic link, or hard link where symbolic links are not
//! allowed) into a fresh folder under the system's temporary directory, and the
//! prober is given that one folder. The folder is removed when the tables are
//! dropped (the links only; `remove_dir_all` does not follow them). A process
//! that is killed cannot remove its folder, so each new folder first sweeps
//! away those of processes that no longer run (where `/proc` tells).

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

pub(crate) struct Staging {
    dir: PathBuf,
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Every staging folder's name starts with this, then `<pid>-<n>`.
const PREFIX: &str = "tessera-syzygy-";

impl Staging {
    pub(crate) fn new() -> io::Result<Staging> {
        let base = std::env::temp_dir();
        sweep_stale(&base);
        loop {
            let n = NEXT.fetch_add(1, Ordering::Relaxed);
            let dir = base.join(format!("{PREFIX}{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => return Ok(Staging { dir }),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }

    /// Links `target` into the folder as `file_name`.
    pub(crate) fn add(&self, file_name: &str, target: &Path) -> io::Result<()> {
        let target = target.canonicalize()?;
        let link = self.dir.join(file_name);
        if symlink(&target, &link).is_ok() {
            return Ok(());
        }
        std::fs::hard_link(&target, &link)
    }

    /// The folder as the prober's path string. The prober splits its path on
    /// `:`, so on Windows the drive letter is dropped (a path from the root of
    /// the current drive), which needs the temporary folder on the current drive.
    pub(crate) fn prober_path(&self) -> io::Result<String> {
        let text = self.dir.to_str().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidData, "temporary folder is not UTF-8")
        })?;
        let text = if cfg!(windows) { strip_drive(text) } else { text };
        if text.contains(':') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("temporary folder {text} contains ':'"),
            ));
        }
        Ok(text.to_string())
    }
}

/// Removes the staging folders in `base` left by processes that have ended
/// (killed before they could remove their own). Only where `/proc` lists the
/// running processes; a folder whose process still runs, or that cannot be
/// removed, is left alone.
fn sweep_stale(base: &Path) {
    let proc = Path::new("/proc");
    if !proc.join("self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(base) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(stale_candidate_pid) else { continue };
        if pid != std::process::id() && !proc.join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The process id in a staging folder's name (`tessera-syzygy-<pid>-<n>`).
fn stale_candidate_pid(name: &str) -> Option<u32> {
    let (pid, n) = name.strip_prefix(PREFIX)?.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

fn strip_drive(path: &str) -> &str {
    let b = path.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' { &path[2..] } else { path }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

#[cfg(windows)]
fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::windows::fs::symlink_file(target, link)
}

#[cfg(not(any(unix, windows)))]
fn symlink(_target: &Path, _link: &Path) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "no symbolic links"))
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn drive_letters_are_stripped() {
        assert_eq!(super::strip_drive(r"C:\Temp\x"), r"\Temp\x");
        assert_eq!(super::strip_drive("/tmp/x"), "/tmp/x");
    }

    #[test]
    fn folder_names_give_their_process() {
        assert_eq!(super::stale_candidate_pid("tessera-syzygy-123-4"), Some(123));
        assert_eq!(super::stale_candidate_pid("tessera-syzygy-123"), None);
        assert_eq!(super::stale_candidate_pid("tessera-syzygy-x-4"), None);
        assert_eq!(super::stale_candidate_pid("other-123-4"), None);
    }

    #[test]
    fn a_new_folder_sweeps_those_of_ended_processes_only() {
        if !std::path::Path::new("/proc/self").exists() {
            return; // no way to tell which processes run
        }
        let base = std::env::temp_dir();
        // No process has the largest id: pid_max is at most 2^22.
        let stale = base.join(format!("{}{}-0", super::PREFIX, u32::MAX));
        let ours = base.join(format!("{}{}-999999", super::PREFIX, std::process::id()));
        std::fs::create_dir_all(stale.join("inner")).expect("temporary folder");
        std::fs::create_dir_all(&ours).expect("temporary folder");
        let staging = super::Staging::new().expect("a staging folder");
        assert!(!stale.exists(), "the folder of an ended process is removed");
        assert!(ours.exists(), "a folder of a running process stays");
        assert!(staging.dir.exists());
        std::fs::remove_dir_all(&ours).expect("cleanup");
    }
}
