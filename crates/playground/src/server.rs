//! The HTTP server: `tiny_http` on a loopback address, a few worker threads taking requests
//! from it, routing to the bundled assets and the JSON API.
//!
//! Routes: `GET /` (the page), `GET /assets/NAME` (its script and style), `GET /api/examples`,
//! `POST /api/model` ([`crate::api`]), `GET /api/health`. Everything else is a 404 (or 405 for
//! a known path with the wrong method), as JSON `{"error": {...}}`.
//!
//! Invariants: a request body over [`MAX_BODY`] bytes is refused with 413 before it is read
//! past the limit; every answer has a status, a content type and `Cache-Control: no-store`; a
//! panic while answering is caught and becomes a 500, and the worker goes on; a slow request
//! holds one worker only ([`Config::workers`] of them); tiny_http itself answers malformed
//! HTTP with 400. Nothing is read from or written to disk, and nothing leaves the machine.

use std::io::Read;
use std::net::SocketAddr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::thread::JoinHandle;

use serde::Serialize;
use tiny_http::{Header, Method, Request, Response};

use crate::api::{self, ApiError};
use crate::front::UserError;

/// The largest request body accepted (1 MiB).
pub const MAX_BODY: usize = 1 << 20;

/// How to serve.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to bind (default `127.0.0.1`: this machine only).
    pub host: String,
    /// Port (0: any free port).
    pub port: u16,
    /// Worker threads.
    pub workers: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            host: "127.0.0.1".into(),
            port: 8030,
            workers: 4,
        }
    }
}

/// A running server.
pub struct Running {
    server: Arc<tiny_http::Server>,
    workers: Vec<JoinHandle<()>>,
    /// The address it listens on.
    pub addr: SocketAddr,
}

impl Running {
    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Stops the workers and waits for them.
    pub fn stop(self) {
        for _ in &self.workers {
            self.server.unblock();
        }
        for w in self.workers {
            let _ = w.join();
        }
    }

    /// Serves until the process ends.
    pub fn wait(self) {
        for w in self.workers {
            let _ = w.join();
        }
    }
}

/// Binds and starts the workers.
pub fn start(cfg: &Config) -> Result<Running, String> {
    let server = tiny_http::Server::http((cfg.host.as_str(), cfg.port))
        .map_err(|e| format!("cannot listen on {}:{}: {e}", cfg.host, cfg.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or("the server has no IP address")?;
    let server = Arc::new(server);
    let workers = (0..cfg.workers.max(1))
        .map(|k| {
            let s = Arc::clone(&server);
            std::thread::Builder::new()
                .name(format!("playground-{k}"))
                .stack_size(64 << 20)
                .spawn(move || worker(&s))
                .map_err(|e| format!("cannot start a worker thread: {e}"))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Running {
        server,
        workers,
        addr,
    })
}

/// Answers requests until the server is unblocked.
fn worker(server: &tiny_http::Server) {
    while let Ok(mut req) = server.recv() {
        let answer = catch_unwind(AssertUnwindSafe(|| route(&mut req)))
            .unwrap_or_else(|_| error(500, UserError::plain("the playground hit an internal error on this input (a bug: please report it); the server goes on")));
        let _ = req.respond(answer);
    }
}

type Answer = Response<std::io::Cursor<Vec<u8>>>;

/// The page and its assets.
const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/assets/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "/assets/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/assets/draw.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/draw.js"),
    ),
    (
        "/assets/views.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/views.js"),
    ),
];

fn route(req: &mut Request) -> Answer {
    let path = req.url().split('?').next().unwrap_or("").to_string();
    let get = *req.method() == Method::Get || *req.method() == Method::Head;
    let post = *req.method() == Method::Post;
    if let Some(&(_, mime, body)) = ASSETS.iter().find(|a| a.0 == path) {
        return match get {
            true => respond(200, mime, body.as_bytes().to_vec()),
            false => error(405, UserError::plain(format!("{path} answers GET only"))),
        };
    }
    match (path.as_str(), get, post) {
        ("/api/health", true, _) => json(200, &serde_json::json!({ "ok": true })),
        ("/api/examples", true, _) => json(200, &crate::examples::EXAMPLES),
        ("/api/model", _, true) => model(req),
        ("/api/health" | "/api/examples", false, _) => {
            error(405, UserError::plain(format!("{path} answers GET only")))
        }
        ("/api/model", _, false) => error(
            405,
            UserError::plain("/api/model answers POST only, with a JSON body"),
        ),
        _ => error(404, UserError::plain(format!("no such page: {path}"))),
    }
}

/// `POST /api/model`.
fn model(req: &mut Request) -> Answer {
    let body = match read_body(req) {
        Ok(b) => b,
        Err(answer) => return *answer,
    };
    match api::parse_request(&body).and_then(|r| api::model(&r)) {
        Ok(m) => json(200, &m),
        Err(ApiError { status, error: e }) => error(status, e),
    }
}

/// The body, at most [`MAX_BODY`] bytes; a 413 answer when larger.
fn read_body(req: &mut Request) -> Result<Vec<u8>, Box<Answer>> {
    let too_big = |n: String| {
        Box::new(error(
            413,
            UserError::plain(format!(
                "the request is too large ({n}); the playground takes at most {} KiB of input",
                MAX_BODY >> 10
            )),
        ))
    };
    if let Some(n) = req.body_length().filter(|&n| n > MAX_BODY) {
        return Err(too_big(format!("{:.1} MB", n as f64 / 1e6)));
    }
    let mut body = Vec::new();
    let read = req
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body);
    if let Err(e) = read {
        return Err(Box::new(error(
            400,
            UserError::plain(format!("could not read the request body: {e}")),
        )));
    }
    if body.len() > MAX_BODY {
        return Err(too_big("over the limit".into()));
    }
    Ok(body)
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .expect("static header names and values are valid")
}

fn respond(status: u16, mime: &str, body: Vec<u8>) -> Answer {
    Response::from_data(body)
        .with_status_code(status)
        .with_header(header("Content-Type", mime))
        .with_header(header("Cache-Control", "no-store"))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:",
        ))
}

fn json<T: Serialize + ?Sized>(status: u16, v: &T) -> Answer {
    match serde_json::to_vec(v) {
        Ok(body) => respond(status, "application/json", body),
        Err(e) => error(
            500,
            UserError::plain(format!("could not write the answer: {e}")),
        ),
    }
}

fn error(status: u16, e: UserError) -> Answer {
    let body = serde_json::to_vec(&serde_json::json!({ "error": e })).unwrap_or_default();
    respond(status, "application/json", body)
}
