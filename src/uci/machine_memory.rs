//! How much physical memory the machine has, as each system tells it:
//! `/proc/meminfo` on Linux, `GlobalMemoryStatusEx` on Windows, the sysctl
//! `hw.memsize` on macOS. `Hash` may ask for at most this much.

/// The machine's physical memory in bytes; `None` where the system does not say.
pub fn total_bytes() -> Option<u64> {
    system::total_bytes()
}

#[cfg(target_os = "linux")]
mod system {
    /// `MemTotal` of `/proc/meminfo`.
    pub fn total_bytes() -> Option<u64> {
        mem_total(&std::fs::read_to_string("/proc/meminfo").ok()?)
    }

    /// The bytes of the `MemTotal:` line (which Linux writes in kB) of `meminfo`.
    pub fn mem_total(meminfo: &str) -> Option<u64> {
        let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        kb.checked_mul(1024)
    }
}

#[cfg(windows)]
mod system {
    use windows_sys::Win32::System::SystemInformation::{GlobalMemoryStatusEx, MEMORYSTATUSEX};

    /// `ullTotalPhys` of `GlobalMemoryStatusEx`.
    pub fn total_bytes() -> Option<u64> {
        let mut status = MEMORYSTATUSEX {
            dwLength: size_of::<MEMORYSTATUSEX>() as u32,
            ..MEMORYSTATUSEX::default()
        };
        // SAFETY: `status` is a writable MEMORYSTATUSEX whose `dwLength` says
        // its size, as the call requires; it only writes into `status`.
        let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
        (ok != 0 && status.ullTotalPhys > 0).then_some(status.ullTotalPhys)
    }
}

#[cfg(target_os = "macos")]
mod system {
    /// The sysctl `hw.memsize`.
    pub fn total_bytes() -> Option<u64> {
        let mut bytes = 0u64;
        let mut len = size_of::<u64>();
        // SAFETY: the name is a NUL-terminated C string; `bytes` is writable
        // and `len` says its size; no new value is set (null, 0).
        let rc = unsafe {
            libc::sysctlbyname(
                c"hw.memsize".as_ptr(),
                (&raw mut bytes).cast(),
                &mut len,
                std::ptr::null_mut(),
                0,
            )
        };
        (rc == 0 && len == size_of::<u64>() && bytes > 0).then_some(bytes)
    }
}

#[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
mod system {
    /// Not known here.
    pub fn total_bytes() -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(any(target_os = "linux", windows, target_os = "macos"))]
    #[test]
    fn the_system_says_how_much_memory_it_has() {
        let bytes = total_bytes().expect("the machine's memory");
        assert!(bytes >= 64 << 20, "{bytes} bytes");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn meminfo_says_it_in_kb() {
        let meminfo = "MemTotal:       16318720 kB\nMemFree:         1000000 kB\n";
        assert_eq!(system::mem_total(meminfo), Some(16_318_720 * 1024));
        assert_eq!(system::mem_total("MemFree: 1 kB\n"), None);
    }
}
