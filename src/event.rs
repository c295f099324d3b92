//! [`Event`]: a flag that threads can wait on, so that no thread polls another with sleeps; and
//! [`StopFlag`], a stop request that hot loops read as an atomic and a waiter sleeps on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// A boolean that one thread sets and others wait for (with a deadline, or until a condition
/// of their own holds). Waiters are woken on every [`Event::set`] and [`Event::notify`].
#[derive(Default)]
pub struct Event {
    set: Mutex<bool>,
    changed: Condvar,
}

impl Event {
    fn lock(&self) -> MutexGuard<'_, bool> {
        // A panic while holding this lock cannot leave the flag inconsistent: keep going.
        self.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets the flag and wakes every waiter.
    pub fn set(&self) {
        *self.lock() = true;
        self.changed.notify_all();
    }

    /// Clears the flag.
    pub fn reset(&self) {
        *self.lock() = false;
    }

    pub fn is_set(&self) -> bool {
        *self.lock()
    }

    /// Wakes every waiter without setting the flag: something they test besides it changed.
    /// (Taking the lock first means a waiter between its test and its sleep cannot miss it.)
    pub fn notify(&self) {
        drop(self.lock());
        self.changed.notify_all();
    }

    /// Waits until the flag is set or `deadline` passes; whether it is set.
    pub fn wait_until(&self, deadline: Instant) -> bool {
        let mut set = self.lock();
        while !*set {
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            set = self
                .changed
                .wait_timeout(set, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// Waits while `condition()` holds, woken by [`Event::set`] and [`Event::notify`]. Whoever
    /// changes what `condition` reads must then call one of them.
    pub fn wait_while(&self, condition: impl Fn() -> bool) {
        let mut guard = self.lock();
        while condition() {
            guard = self.changed.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// A request to stop: counting loops read it cheaply ([`StopFlag::flag`]), and a thread that
/// waits for something else (a search to answer) also wakes when it is set.
#[derive(Default)]
pub struct StopFlag {
    flag: AtomicBool,
    wake: Event,
}

impl StopFlag {
    /// Asks to stop and wakes the waiter.
    pub fn stop(&self) {
        self.flag.store(true, Ordering::Release);
        self.wake.notify();
    }

    pub fn is_stopped(&self) -> bool {
        self.flag.load(Ordering::Acquire)
    }

    /// The flag itself, for loops that check it as they count.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Wakes the waiter: what its condition reads has changed.
    pub fn notify(&self) {
        self.wake.notify();
    }

    /// Waits while `condition()` holds and no stop was asked for; whoever changes what
    /// `condition` reads must then call [`StopFlag::notify`].
    pub fn wait_while(&self, condition: impl Fn() -> bool) {
        self.wake.wait_while(|| !self.is_stopped() && condition());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    #[test]
    fn a_waiter_sees_the_flag_set_by_another_thread() {
        let event = Arc::new(Event::default());
        assert!(!event.wait_until(Instant::now() + Duration::from_millis(5)));
        let setter = {
            let event = Arc::clone(&event);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(20));
                event.set();
            })
        };
        assert!(event.wait_until(Instant::now() + Duration::from_secs(60)));
        setter.join().unwrap();
        event.reset();
        assert!(!event.is_set());
    }

    #[test]
    fn wait_while_ends_when_notified_of_the_change() {
        let event = Arc::new(Event::default());
        let hold = Arc::new(AtomicBool::new(true));
        let (done_tx, done_rx) = std::sync::mpsc::channel();
        let waiter = {
            let (event, hold) = (Arc::clone(&event), Arc::clone(&hold));
            std::thread::spawn(move || {
                event.wait_while(|| hold.load(Ordering::Acquire));
                done_tx.send(()).unwrap();
            })
        };
        std::thread::sleep(Duration::from_millis(20));
        assert!(
            done_rx.try_recv().is_err(),
            "the waiter returned while its condition held"
        );
        hold.store(false, Ordering::Release);
        event.notify();
        // A lost wake-up fails here instead of hanging the test run.
        assert!(
            done_rx.recv_timeout(Duration::from_secs(60)).is_ok(),
            "the waiter was not woken by the notification"
        );
        waiter.join().unwrap();
    }
}
