//! The Syzygy options' effect: loading the tables named by `SyzygyPath` and
//! saying in one `info string` what was found, or what is wrong.

use super::output::Output;
use search::ThreadPool;

/// Loads the tables of `path` into `pool` and reports in one line. Returns
/// whether `path` is now the loaded path list; if not, the tables loaded
/// before (those of `previous`) stay, and the line says so.
pub fn load(pool: &ThreadPool, out: &Output, path: &str, previous: &str) -> bool {
    let was_loaded = pool.tablebases_loaded();
    match pool.load_tablebases(path) {
        Ok(report) if report.folders.is_empty() => {
            if was_loaded {
                out.line("info string Syzygy: no path, tablebases off");
            }
            true
        }
        Ok(report) => {
            out.line(&format!("info string {report}"));
            true
        }
        Err(e) => {
            let kept = if pool.tablebases_loaded() {
                format!("keeping SyzygyPath {previous}")
            } else {
                "no tables loaded".to_string()
            };
            out.line(&format!("info string error: SyzygyPath {path}: {e}; {kept}"));
            false
        }
    }
}
