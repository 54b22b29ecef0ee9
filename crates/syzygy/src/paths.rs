//! The `SyzygyPath` list: folders separated by `:` (Unix style) or `;` (as
//! Windows GUIs send).

use std::path::PathBuf;

/// Splits a path list into folders. Both `;` and `:` separate, except a `:`
/// that ends a one-letter drive name (`C:\tb;D:\tb` is two folders). Empty
/// entries are dropped, and so is the whole list when it is `<empty>` (the
/// default some GUIs send).
///
/// ```
/// use std::path::PathBuf;
/// assert_eq!(syzygy::split_path_list("/a:/b;/c"), [PathBuf::from("/a"), "/b".into(), "/c".into()]);
/// assert_eq!(syzygy::split_path_list(r"C:\tb;D:\x"), [PathBuf::from(r"C:\tb"), r"D:\x".into()]);
/// assert!(syzygy::split_path_list("<empty>").is_empty());
/// ```
pub fn split_path_list(list: &str) -> Vec<PathBuf> {
    let list = list.trim();
    if list == "<empty>" {
        return Vec::new();
    }
    let mut folders = Vec::new();
    let mut current = String::new();
    for c in list.chars() {
        let drive_colon =
            c == ':' && current.len() == 1 && current.as_bytes()[0].is_ascii_alphabetic();
        if (c == ';' || c == ':') && !drive_colon {
            if !current.trim().is_empty() {
                folders.push(PathBuf::from(current.trim()));
            }
            current.clear();
        } else {
            current.push(c);
        }
    }
    if !current.trim().is_empty() {
        folders.push(PathBuf::from(current.trim()));
    }
    folders
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_and_drives() {
        assert_eq!(split_path_list(""), Vec::<PathBuf>::new());
        assert_eq!(split_path_list(" /tb "), [PathBuf::from("/tb")]);
        assert_eq!(split_path_list("/a::/b;;"), [PathBuf::from("/a"), "/b".into()]);
        assert_eq!(split_path_list("C:/tb:D:/x"), [PathBuf::from("C:/tb"), "D:/x".into()]);
        assert_eq!(split_path_list("tb:C"), [PathBuf::from("tb"), "C".into()]);
    }
}
