//! The server under bad input: a real server on an ephemeral loopback port, spoken to over raw
//! TCP. Invalid IR, binary bodies, a 10 MB body, malformed HTTP, a 10,000-block function and 100
//! concurrent requests each get a clear answer, and the next request is still served.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use mem2reg_playground::{start, Config, Running};

fn server() -> Running {
    start(&Config {
        host: "127.0.0.1".into(),
        port: 0,
        workers: 4,
    })
    .expect("server starts")
}

/// Sends `raw` and reads the answer: (status, body). Status 0 when the connection closed
/// without an answer.
fn send(addr: SocketAddr, raw: &[u8]) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
    let _ = s.write_all(raw);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

fn post(addr: SocketAddr, body: &[u8]) -> (u16, String) {
    let mut raw = format!("POST /api/model HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len()).into_bytes();
    raw.extend_from_slice(body);
    send(addr, &raw)
}

fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    send(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

fn model(source: &str, lang: &str) -> Vec<u8> {
    serde_json::to_vec(&serde_json::json!({ "lang": lang, "source": source })).unwrap()
}

const MAX: &str = include_str!("../../../../examples/max.ll");

fn healthy(addr: SocketAddr) {
    let (status, body) = post(addr, &model(MAX, "llvm"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("%result.0"));
}

#[test]
fn pages_and_examples() {
    let s = server();
    let (st, body) = get(s.addr, "/");
    assert_eq!(st, 200);
    assert!(body.contains("mem2reg playground"));
    assert_eq!(get(s.addr, "/assets/app.js").0, 200);
    let (st, body) = get(s.addr, "/api/examples");
    assert_eq!(st, 200);
    let ex: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert!(ex.as_array().unwrap().iter().any(|e| e["id"] == "max"));
    assert_eq!(get(s.addr, "/nope").0, 404);
    assert_eq!(get(s.addr, "/api/model").0, 405);
    healthy(s.addr);
    s.stop();
}

#[test]
fn errors_carry_line_and_column() {
    let s = server();
    let (st, body) = post(
        s.addr,
        &model("define i32 @f() {\nentry:\n  ret i32 %nope\n}\n", "llvm"),
    );
    assert_eq!(st, 422, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["error"]["line"], 3);
    assert!(v["error"]["rendered"]
        .as_str()
        .unwrap()
        .starts_with("input.ll:3:"));
    let (st, body) = post(s.addr, &model("x = 1;\nif (x { }", "while"));
    assert_eq!(st, 422);
    assert!(body.contains("input.while:2:"), "{body}");
    let (st, _) = post(s.addr, &model("\u{0}\u{1}\u{fffd}binary", "llvm"));
    assert_eq!(st, 422);
    healthy(s.addr);
    s.stop();
}

#[test]
fn bad_requests_get_clear_errors_and_the_server_goes_on() {
    let s = server();
    let (st, body) = post(s.addr, &[0xff, 0xfe, 0x00, 0x80, 0x12]);
    assert_eq!(st, 400);
    assert!(body.contains("not UTF-8"));
    let (st, body) = post(s.addr, b"{\"source\": 3}");
    assert_eq!(st, 400, "{body}");
    let (st, _) = post(s.addr, b"{\"source\": \"\", \"views\": [\"bogus\"]}");
    assert_eq!(st, 400);
    // 10 MB: refused from its Content-Length, before reading it all.
    let big = vec![b'a'; 10 << 20];
    let (st, body) = post(s.addr, &big);
    assert_eq!(st, 413);
    assert!(body.contains("too large"));
    // The same without a length (chunked): refused once over the limit.
    let mut raw = b"POST /api/model HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..20 {
        raw.extend_from_slice(format!("{:x}\r\n", 100_000).as_bytes());
        raw.extend(std::iter::repeat_n(b'b', 100_000));
        raw.extend_from_slice(b"\r\n");
    }
    raw.extend_from_slice(b"0\r\n\r\n");
    assert_eq!(send(s.addr, &raw).0, 413);
    // Malformed HTTP: tiny_http answers 400 or closes; either way the next request works.
    let (st, _) = send(s.addr, b"GARBAGE \x00\x01\x02\r\n\r\n");
    assert!(st == 400 || st == 0, "{st}");
    let (st, _) = send(
        s.addr,
        b"GET / HTTP/1.1\r\nHost: x\r\nBad Header Without Colon\r\n\r\n",
    );
    assert!(st == 400 || st == 0 || st == 200, "{st}");
    healthy(s.addr);
    s.stop();
}

/// A function of `n` blocks (under the 1 MiB body limit): a chain whose every block stores to
/// one slot and branches to the next block or to the exit, which reads the slot.
fn big_function(n: usize) -> String {
    let mut s =
        String::from("define i32 @big(i1 %c) {\nentry:\n  %x = alloca i32\n  br label %b0\n");
    for i in 0..n {
        s += &format!(
            "b{i}:\n  store i32 {i}, ptr %x\n  br i1 %c, label %b{}, label %e\n",
            i + 1
        );
    }
    s += &format!("b{n}:\n  br label %e\ne:\n  %r = load i32, ptr %x\n  ret i32 %r\n}}\n");
    s
}

#[test]
fn ten_thousand_blocks_answer_quickly() {
    let s = server();
    let t = Instant::now();
    let (st, body) = post(s.addr, &model(&big_function(10_000), "llvm"));
    let took = t.elapsed();
    assert!(
        st == 200 || st == 422,
        "{st}: {}",
        &body[..body.len().min(300)]
    );
    assert!(took < Duration::from_secs(60), "{took:?}");
    if st == 200 {
        assert!(
            body.contains("pictures are drawn for up to 50"),
            "a message instead of a hairball"
        );
    }
    healthy(s.addr);
    s.stop();
}

#[test]
fn a_hundred_concurrent_requests() {
    let s = server();
    let addr = s.addr;
    let threads: Vec<_> = (0..100)
        .map(|k| {
            std::thread::spawn(move || match k % 4 {
                0 => post(addr, &model(MAX, "llvm")).0,
                1 => {
                    post(
                        addr,
                        &model("i = 0; while (i < 3) { i = i + 1; } return i;", "while"),
                    )
                    .0
                }
                2 => post(addr, &model("define i32 @f( {", "llvm")).0,
                _ => get(addr, "/api/examples").0,
            })
        })
        .collect();
    let statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for (k, st) in statuses.iter().enumerate() {
        let want = if k % 4 == 2 { 422 } else { 200 };
        assert_eq!(*st, want, "request {k}");
    }
    healthy(addr);
    s.stop();
}
