//! Splitting the table's memory across the threads of a [`Placement`] for its
//! first touch and its clears.

use crate::placement::Placement;
#[cfg(not(loom))]
use std::sync::Mutex;

/// Slices smaller than this are processed on the calling thread: starting
/// threads costs more than clearing them.
#[cfg(not(loom))]
pub(crate) const PARALLEL_MIN_BYTES: usize = 32 << 20;

/// Calls `f` on contiguous parts covering `items`, one part per thread of
/// `placement`: thread `i` pins itself as the placement says, then handles the
/// `i`-th part. Every part but the last is a whole number of `align` elements (so
/// that no huge page is split between two threads, which may be on different
/// nodes).
///
/// Each thread is a scoped thread of its own, started for the call. Runs on the
/// calling thread when `items` is small, when the placement is one unpinned
/// thread, and always under loom; a part whose thread the system refuses is
/// handled on the calling thread after the others.
pub(crate) fn for_each_part<T: Send>(
    items: &mut [T],
    placement: &Placement,
    align: usize,
    f: impl Fn(&mut [T]) + Sync,
) {
    #[cfg(not(loom))]
    if size_of_val(items) >= PARALLEL_MIN_BYTES
        && (placement.threads() > 1 || placement.is_pinned())
    {
        let part = items.len().div_ceil(placement.threads()).next_multiple_of(align.max(1));
        // Each part in a slot of its own: a thread takes its part out of the slot,
        // and what is left after the threads have run was refused a thread.
        let slots: Vec<Mutex<Option<&mut [T]>>> =
            items.chunks_mut(part).map(|p| Mutex::new(Some(p))).collect();
        std::thread::scope(|s| {
            for (i, slot) in slots.iter().enumerate() {
                let f = &f;
                let started = std::thread::Builder::new()
                    .name(format!("tt-touch-{i}"))
                    .spawn_scoped(s, move || {
                        placement.pin(i);
                        if let Some(part) = take(slot) {
                            f(part);
                        }
                    });
                // Refused: the part stays in its slot for the calling thread.
                drop(started);
            }
        });
        for slot in &slots {
            if let Some(part) = take(slot) {
                f(part);
            }
        }
        return;
    }
    let _ = (placement, align);
    f(items);
}

/// The part left in `slot`, if any (a poisoned slot still hands it out).
#[cfg(not(loom))]
fn take<'a, T>(slot: &Mutex<Option<&'a mut [T]>>) -> Option<&'a mut [T]> {
    slot.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take()
}
