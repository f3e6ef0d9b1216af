// Kept because Node 20's fetch (undici 6) fails requests once undici 7 is loaded: loading the
// package makes its own Agent the process's fetch() dispatcher unless Node's exists already,
// and Node's fetch then refuses some answers ("invalid content-length header"). One call of
// fetch() makes Node's dispatcher first; imported before undici (send.ts, jwt-keys.ts). jose
// is given undici's fetch itself; this keeps Node's fetch right for any other caller.
fetch("").catch(() => {});
