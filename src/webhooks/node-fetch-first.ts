// Loading the undici package makes its own Agent the process's fetch() dispatcher unless Node's
// has been made already, and Node 20's fetch (an older undici) then refuses some of its own
// requests ("invalid content-length header"), jose's key fetches among them. One call of fetch()
// makes Node's dispatcher first; imported before undici (send.ts).
fetch("").catch(() => {});
