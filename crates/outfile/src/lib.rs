//! Outputs that appear whole or not at all, the one implementation every command uses.
//!
//! - [`TempFile`]: one file written under a temporary name in its target folder and renamed
//!   into place by [`TempFile::commit`]. The name is unpredictable (`.arbiter-<random>.NAME`,
//!   ending as the final name does, for writers that pick a format by extension) and created
//!   exclusively (`O_CREAT | O_EXCL | O_NOFOLLOW`): a file or symlink planted at that name
//!   makes the creation fail instead of being followed. A replaced file's permissions are
//!   kept (a 600 file stays 600).
//! - [`Staging`]: a set of entries (files, folders of tables) built in a hidden folder inside
//!   the target folder and moved into place together by [`Staging::commit`]: each entry
//!   replaces the one of its name whole (a folder of partitions is replaced, never merged),
//!   under an exclusive lock on the target folder, so two runs into one folder never mix
//!   their entries.
//! - [`cleanup_on_signals`]: SIGINT, SIGTERM and SIGHUP remove every temporary still
//!   registered, then end the process (exit 130, 143 or 129).
//!
//! A temporary dropped without being committed is removed, so an error leaves nothing.

use std::collections::hash_map::RandomState;
use std::ffi::OsStr;
use std::fs::{self, File, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Test hook: when set to a number N, every [`TempFile`] fails its writes with "No space
/// left on device" once N bytes have been written to it (a disk that fills up, without a
/// full file system to run on).
pub const FAIL_AFTER_ENV: &str = "ARBITER_TEST_FAIL_WRITES_AFTER";

/// The temporaries to remove on a signal: (path, is a folder).
static TEMPS: Mutex<Vec<(PathBuf, bool)>> = Mutex::new(Vec::new());

fn temps() -> MutexGuard<'static, Vec<(PathBuf, bool)>> {
    TEMPS.lock().unwrap_or_else(|e| e.into_inner())
}

fn unregister(list: &mut Vec<(PathBuf, bool)>, path: &Path) {
    if let Some(i) = list.iter().rposition(|(p, _)| p == path) {
        list.swap_remove(i);
    }
}

/// 64 unpredictable bits: std's hasher keys come from the system's random source.
fn random() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let mut h = RandomState::new().build_hasher();
    h.write_u64(COUNT.fetch_add(1, Ordering::Relaxed));
    h.write_u32(std::process::id());
    if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(t.as_nanos());
    }
    h.finish()
}

/// `.arbiter-<16 hex digits>.NAME`: hidden, unpredictable, ending as `name` does.
pub fn temp_name(name: &OsStr) -> String {
    format!(".arbiter-{:016x}.{}", random(), name.to_string_lossy())
}

/// The folder of `path` (`.` for a bare name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// `path: error`, keeping the error's kind (a closed pipe or a full disk stays one).
pub fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// Creates a new file exclusively (never following a symlink) with `mode` (before umask).
fn create_exclusive(path: &Path, mode: u32) -> io::Result<File> {
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
}

/// One file being written under a temporary name beside its final one.
#[derive(Debug)]
pub struct TempFile {
    file: Option<File>,
    temp: PathBuf,
    path: PathBuf,
    written: u64,
    fail_after: Option<u64>,
}

impl TempFile {
    /// A temporary file in the folder of `path` (which must exist). When `path` names an
    /// existing file, the new one gets its permissions.
    pub fn create(path: &Path) -> io::Result<TempFile> {
        let name = path
            .file_name()
            .ok_or_else(|| named(path, io::Error::other("not a file name")))?;
        let dir = parent_of(path);
        let old_mode = fs::metadata(path)
            .ok()
            .filter(|m| m.is_file())
            .map(|m| m.permissions().mode() & 0o7777);
        let mut tries = 0;
        // Created and registered under the lock: once a signal's cleanup holds it, no
        // temporary can appear that it would miss.
        let mut list = temps();
        let (file, temp) = loop {
            let temp = dir.join(temp_name(name));
            match create_exclusive(&temp, old_mode.unwrap_or(0o666)) {
                Ok(f) => break (f, temp),
                // Taken (by chance, or planted): another unpredictable name.
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
                Err(e) => return Err(named(path, e)),
            }
        };
        list.push((temp.clone(), false));
        drop(list);
        if let Some(mode) = old_mode {
            // Exactly the old mode, whatever the umask.
            let _ = file.set_permissions(fs::Permissions::from_mode(mode));
        }
        let fail_after = std::env::var(FAIL_AFTER_ENV)
            .ok()
            .and_then(|v| v.parse().ok());
        Ok(TempFile {
            file: Some(file),
            temp,
            path: path.to_path_buf(),
            written: 0,
            fail_after,
        })
    }

    /// The temporary file's path (for writers that take a path).
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Closes the file, to keep the number of open files bounded; [`TempFile::reopen`]
    /// opens it again to append.
    pub fn close(&mut self) {
        self.file = None;
    }

    /// Opens a closed file again, at its end.
    pub fn reopen(&mut self) -> io::Result<()> {
        if self.file.is_none() {
            let f = OpenOptions::new()
                .append(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(&self.temp)
                .map_err(|e| named(&self.path, e))?;
            self.file = Some(f);
        }
        Ok(())
    }

    /// Gives the file its final name (replacing a file of that name).
    pub fn commit(mut self) -> io::Result<()> {
        self.file = None;
        let mut list = temps();
        let renamed = fs::rename(&self.temp, &self.path);
        if renamed.is_ok() {
            unregister(&mut list, &self.temp);
            self.temp = PathBuf::new();
        }
        renamed.map_err(|e| named(&self.path, e))
    }

    fn file(&mut self) -> io::Result<&mut File> {
        let path = &self.path;
        self.file
            .as_mut()
            .ok_or_else(|| named(path, io::Error::other("written after it was closed")))
    }
}

impl Write for TempFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut buf = buf;
        if let Some(limit) = self.fail_after {
            let room = limit.saturating_sub(self.written);
            if room == 0 && !buf.is_empty() {
                return Err(named(
                    &self.path,
                    io::Error::from_raw_os_error(libc::ENOSPC),
                ));
            }
            buf = &buf[..buf.len().min(room as usize)];
        }
        let n = self.file()?.write(buf).map_err(|e| named(&self.path, e))?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        let path = self.path.clone();
        self.file()?.flush().map_err(|e| named(&path, e))
    }
}

/// A file written inside a [`Staging`] folder: its errors name `path` (what the user asked
/// for), and the test hook [`FAIL_AFTER_ENV`] makes its writes fail as a full disk would.
#[derive(Debug)]
pub struct StagedFile {
    file: File,
    path: PathBuf,
    room: Option<u64>,
}

impl StagedFile {
    /// `file` (opened in the staging folder), its errors naming `path`.
    pub fn new(file: File, path: &Path) -> StagedFile {
        StagedFile {
            file,
            path: path.to_path_buf(),
            room: std::env::var(FAIL_AFTER_ENV)
                .ok()
                .and_then(|v| v.parse().ok()),
        }
    }
}

impl StagedFile {
    /// Creates (or truncates) the file `path`, never through a symlink at its name. When
    /// `path` lies inside a [`Staging`] folder, its errors name the path the file will have
    /// once committed (`out/games.parquet`, not `out/.arbiter-….staging/games.parquet`).
    pub fn create(path: &Path) -> io::Result<StagedFile> {
        let shown = committed_path(path);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o666)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(path)
            .map_err(|e| named(&shown, e))?;
        Ok(StagedFile::new(file, &shown))
    }
}

/// Writes `bytes` to the file `path` through a [`StagedFile`] (so the test hook applies and
/// errors name the committed path).
pub fn write_staged(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut f = StagedFile::create(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// `path` without the staging folder in it: where a file written in a [`Staging`] folder
/// ends up once committed.
pub fn committed_path(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| {
            let name = c.as_os_str().to_string_lossy();
            !(name.starts_with(".arbiter-") && name.ends_with(".staging"))
        })
        .collect()
}

impl Write for StagedFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut buf = buf;
        if let Some(room) = self.room {
            if room == 0 && !buf.is_empty() {
                return Err(named(
                    &self.path,
                    io::Error::from_raw_os_error(libc::ENOSPC),
                ));
            }
            buf = &buf[..buf.len().min(room as usize)];
        }
        let n = self.file.write(buf).map_err(|e| named(&self.path, e))?;
        if let Some(room) = self.room.as_mut() {
            *room -= n as u64;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|e| named(&self.path, e))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            self.file = None;
            let mut list = temps();
            let _ = fs::remove_file(&self.temp);
            unregister(&mut list, &self.temp);
        }
    }
}

/// Entries built in a hidden folder inside their target folder, moved into place together.
#[derive(Debug)]
pub struct Staging {
    target: PathBuf,
    dir: PathBuf,
    /// The target folder did not exist: it is removed again if nothing is committed.
    created: bool,
}

impl Staging {
    /// A staging folder inside `target` (created if missing, with its parents).
    pub fn create(target: &Path) -> io::Result<Staging> {
        let mut list = temps();
        let created = !target.exists();
        fs::create_dir_all(target).map_err(|e| named(target, e))?;
        if created {
            list.push((target.to_path_buf(), true));
        }
        let mut tries = 0;
        let dir = loop {
            let dir = target.join(temp_name(OsStr::new("staging")));
            // `mkdir` is exclusive and does not follow a symlink at its name.
            match fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 16 => tries += 1,
                Err(e) => {
                    if created {
                        let _ = fs::remove_dir(target);
                        unregister(&mut list, target);
                    }
                    return Err(named(target, e));
                }
            }
        };
        list.push((dir.clone(), true));
        drop(list);
        Ok(Staging {
            target: target.to_path_buf(),
            dir,
            created,
        })
    }

    /// Where to write the entries.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The target folder.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Moves every entry of the staging folder into the target, each replacing the entry of
    /// its name whole; `obsolete` names entries of the target to remove as well (the other
    /// form of the same output, as `games/` for `games.parquet`). Done under an exclusive
    /// lock of the target folder (two runs commit one after the other) and of the list of
    /// temporaries (a signal waits for the moves to end).
    pub fn commit(mut self, obsolete: &[&str]) -> io::Result<()> {
        let lock = File::open(&self.target).map_err(|e| named(&self.target, e))?;
        {
            use std::os::fd::AsRawFd;
            // SAFETY: flock on a descriptor we own; released when `lock` is closed.
            while unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX) } != 0 {
                let e = io::Error::last_os_error();
                if e.kind() != io::ErrorKind::Interrupted {
                    return Err(named(&self.target, e));
                }
            }
        }
        let mut list = temps();
        let trash = self.dir.join(temp_name(OsStr::new("old")));
        fs::create_dir(&trash).map_err(|e| named(&self.target, e))?;
        let mut names = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(|e| named(&self.dir, e))? {
            let name = entry.map_err(|e| named(&self.dir, e))?.file_name();
            if self.dir.join(&name) != trash {
                names.push(name);
            }
        }
        for name in obsolete {
            let old = self.target.join(name);
            if names.iter().all(|n| n != OsStr::new(name)) && fs::symlink_metadata(&old).is_ok() {
                fs::rename(&old, trash.join(name)).map_err(|e| named(&old, e))?;
            }
        }
        for name in &names {
            let new = self.dir.join(name);
            let dest = self.target.join(name);
            if fs::symlink_metadata(&dest).is_ok() {
                if !exchange(&new, &dest)? {
                    fs::rename(&dest, trash.join(name)).map_err(|e| named(&dest, e))?;
                    fs::rename(&new, &dest).map_err(|e| named(&dest, e))?;
                }
            } else {
                fs::rename(&new, &dest).map_err(|e| named(&dest, e))?;
            }
        }
        let _ = fs::remove_dir_all(&self.dir);
        unregister(&mut list, &self.dir);
        if self.created {
            unregister(&mut list, &self.target);
        }
        self.dir = PathBuf::new();
        Ok(())
    }
}

/// Swaps two paths atomically where the system can (Linux `renameat2`); false when it
/// cannot (the caller falls back to two renames).
fn exchange(a: &Path, b: &Path) -> io::Result<bool> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let ca = CString::new(a.as_os_str().as_bytes()).map_err(io::Error::other)?;
        let cb = CString::new(b.as_os_str().as_bytes()).map_err(io::Error::other)?;
        // SAFETY: two valid NUL-terminated paths.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        if r == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) {
            return Ok(false);
        }
        Err(named(b, e))
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        let _ = (a, b);
        Ok(false)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if self.dir.as_os_str().is_empty() {
            return;
        }
        let mut list = temps();
        let _ = fs::remove_dir_all(&self.dir);
        unregister(&mut list, &self.dir);
        if self.created {
            let _ = fs::remove_dir(&self.target);
            unregister(&mut list, &self.target);
        }
    }
}

/// Removes every registered temporary (folders last-registered first, so a created target
/// folder goes after the staging folder inside it).
fn remove_all() {
    let list = temps();
    for (path, dir) in list.iter().rev() {
        if *dir {
            if path
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(".arbiter-"))
            {
                remove_busy_folder(path);
            } else {
                // A target folder this run created: removed only if it is empty.
                let _ = fs::remove_dir(path);
            }
        } else {
            let _ = fs::remove_file(path);
        }
    }
    // Keep the lock: no new temporary is made while the process ends.
    std::mem::forget(list);
}

/// Removes a staging folder other threads may still be writing into: renamed first, so a
/// file created by its old name afterwards fails instead of landing in it, then removed until
/// it is gone (a file created between the listing and the last removal is caught the next
/// time round).
fn remove_busy_folder(path: &Path) {
    let dying = parent_of(path).join(temp_name(OsStr::new("dying")));
    let path = match fs::rename(path, &dying) {
        Ok(()) => dying.as_path(),
        Err(_) => path,
    };
    for _ in 0..64 {
        let _ = fs::remove_dir_all(path);
        if fs::symlink_metadata(path).is_err() {
            return;
        }
        std::thread::yield_now();
    }
}

/// Child processes to end when the process is interrupted (their ids).
static CHILDREN: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn children() -> MutexGuard<'static, Vec<u32>> {
    CHILDREN.lock().unwrap_or_else(|p| p.into_inner())
}

/// Registers a child process (an engine) that an interrupt must end: the signal handling of
/// [`cleanup_on_signals`] kills it before this process ends. Unregister it once it
/// has been waited for ([`unregister_child`]), so that its id, reused, is not signalled.
pub fn register_child(pid: u32) {
    children().push(pid);
}

/// Forgets a child registered with [`register_child`].
pub fn unregister_child(pid: u32) {
    children().retain(|&p| p != pid);
}

/// Kills every registered child (SIGKILL: an engine may block or ignore the others).
fn end_children() {
    for &pid in children().iter() {
        if let Ok(pid) = libc::pid_t::try_from(pid) {
            // SAFETY: a plain system call on a process id this process started.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
    }
}

/// Makes `command`'s process start with no signal blocked: the threads of a process that
/// called [`cleanup_on_signals`] block SIGINT, SIGTERM and SIGHUP, and a child would inherit
/// that (an engine that Ctrl-C could not stop).
pub fn unblock_signals_in(command: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: between fork and exec only async-signal-safe calls are made (sigemptyset,
    // pthread_sigmask), on a set owned by the closure's frame.
    unsafe {
        command.pre_exec(|| {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::pthread_sigmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
            Ok(())
        });
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP end the registered child processes, remove the
/// registered temporaries and end the process with 128 + the signal's number. Call it first in `main`, before any thread is started:
/// the signals are blocked in this thread (and so in every thread started after it) and
/// taken by a thread of their own, which may lock and remove files safely.
pub fn cleanup_on_signals() {
    // SAFETY: plain calls on a signal set we own; the waiting thread only calls sigwait.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, s);
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || loop {
                let mut sig = 0;
                if libc::sigwait(&set, &mut sig) == 0 {
                    end_children();
                    remove_all();
                    let _ =
                        io::stderr().write_all(b"arbiter: interrupted; temporary files removed\n");
                    libc::_exit(128 + sig);
                }
            });
        if spawned.is_err() {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("outfile-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_file_appears_whole_and_keeps_the_mode_it_replaces() {
        let dir = scratch("file");
        let path = dir.join("out.pdn");
        fs::write(&path, b"old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        let mut t = TempFile::create(&path).unwrap();
        t.write_all(b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"old");
        let temp = t.temp_path().to_path_buf();
        assert!(temp
            .file_name()
            .unwrap()
            .to_string_lossy()
            .ends_with(".out.pdn"));
        t.commit().unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        // Dropped unfinished: nothing left, the old file kept.
        let mut t = TempFile::create(&path).unwrap();
        t.write_all(b"half").unwrap();
        drop(t);
        assert_eq!(fs::read(&path).unwrap(), b"new");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_are_unpredictable_and_never_follow_a_symlink() {
        let dir = scratch("names");
        let a = temp_name(OsStr::new("x"));
        let b = temp_name(OsStr::new("x"));
        assert_ne!(a, b);
        let victim = dir.join("victim");
        fs::write(&victim, b"keep").unwrap();
        let planted = dir.join("planted");
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        assert!(create_exclusive(&planted, 0o666).is_err());
        assert_eq!(fs::read(&victim).unwrap(), b"keep");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_staged_folder_replaces_entries_whole() {
        let dir = scratch("staging");
        let target = dir.join("t");
        fs::create_dir_all(target.join("games/year=2019")).unwrap();
        fs::write(target.join("games/year=2019/part.parquet"), b"stale").unwrap();
        fs::write(target.join("games.parquet"), b"other form").unwrap();
        fs::write(target.join("mine.txt"), b"user's").unwrap();
        let s = Staging::create(&target).unwrap();
        fs::create_dir_all(s.path().join("games/year=2020")).unwrap();
        fs::write(s.path().join("games/year=2020/part.parquet"), b"new").unwrap();
        s.commit(&["games.parquet"]).unwrap();
        let mut names: Vec<_> = fs::read_dir(&target)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["games", "mine.txt"]);
        assert!(!target.join("games/year=2019").exists());
        // Dropped: nothing left; a target folder it made is removed.
        let fresh = dir.join("fresh");
        let s = Staging::create(&fresh).unwrap();
        fs::write(s.path().join("a"), b"x").unwrap();
        drop(s);
        assert!(!fresh.exists());
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_staged_file_is_named_by_its_committed_path() {
        let dir = scratch("staged");
        let s = Staging::create(&dir.join("t")).unwrap();
        let path = s.path().join("games.parquet");
        assert_eq!(committed_path(&path), dir.join("t/games.parquet"));
        let mut f = StagedFile::create(&path).unwrap();
        f.room = Some(3);
        let e = f.write_all(b"12345").unwrap_err();
        assert_eq!(e.raw_os_error(), None);
        assert!(
            e.to_string()
                .contains(&*dir.join("t/games.parquet").to_string_lossy()),
            "{e}"
        );
        assert!(e.to_string().contains("No space left on device"), "{e}");
        write_staged(&s.path().join("a.txt"), b"abc").unwrap();
        s.commit(&[]).unwrap();
        assert_eq!(fs::read(dir.join("t/a.txt")).unwrap(), b"abc");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_writer_can_be_made_to_fail() {
        let dir = scratch("fail");
        let path = dir.join("f");
        let mut t = TempFile::create(&path).unwrap();
        t.fail_after = Some(4);
        let e = t.write_all(b"123456").unwrap_err();
        assert!(e.to_string().contains(&*path.to_string_lossy()), "{e}");
        drop(t);
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 0);
        fs::remove_dir_all(&dir).unwrap();
    }
}
