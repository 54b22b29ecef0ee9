//! The Syzygy options' effect: loading the tables named by `SyzygyPath` and
//! saying in one `info string` what was found, or what is wrong; the probe
//! options as the search takes them.

use super::options::Settings;
use super::output::Output;
use search::{TablebaseOptions, ThreadPool};

/// How the search uses the tables, from `SyzygyProbeDepth`, `SyzygyProbeLimit`
/// and `Syzygy50MoveRule`.
pub fn options(settings: &Settings) -> TablebaseOptions {
    TablebaseOptions {
        probe_depth: settings.syzygy_probe_depth,
        probe_limit: settings.syzygy_probe_limit,
        rule50: settings.syzygy_50_move_rule,
    }
}

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
