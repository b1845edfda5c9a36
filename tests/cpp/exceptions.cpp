// Exceptions: throw/catch by type, catch(...), rethrow, nested try, destructors run during
// unwinding, noexcept functions, function-try-blocks, values live across invoke edges.
#include <cstdio>
#include <stdexcept>
#include <string>

static int live_objects;
static std::string trace;

struct Guard {
  int id;
  explicit Guard(int i) : id(i) { live_objects++; }
  ~Guard() { live_objects--; trace += "~" + std::to_string(id) + " "; }
};

struct MyError : std::runtime_error {
  int code;
  MyError(const char *m, int c) : std::runtime_error(m), code(c) {}
};

static int thrower(int kind) {
  Guard g(kind);
  switch (kind) {
  case 0: return 10;
  case 1: throw 42;
  case 2: throw MyError("mine", 7);
  case 3: throw std::out_of_range("range");
  default: throw std::string("str");
  }
}

static int catcher(int kind) {
  int local = 100;           // live across the invoke, read in the handlers
  try {
    local += thrower(kind);
    local += 1;
  } catch (int v) {
    local += v;
  } catch (const MyError &e) {
    local += e.code * 1000;
  } catch (const std::exception &e) {
    local -= 50;
    trace += e.what();
    trace += " ";
  } catch (...) {
    local = -1;
  }
  return local;
}

static int rethrow_inner(int x) {
  Guard g(100 + x);
  try {
    if (x) throw MyError("inner", x);
  } catch (MyError &e) {
    e.code *= 10;
    throw;                   // rethrow the same object
  }
  return 0;
}

static int rethrow_outer(int x) {
  try {
    return rethrow_inner(x);
  } catch (const MyError &e) {
    return e.code;
  }
}

static int nothrow_sum(int n) noexcept {
  int s = 0;
  for (int i = 0; i < n; i++) s += i;
  return s;
}

struct Parser {
  int value;
  explicit Parser(int v) try : value(v > 5 ? throw std::invalid_argument("big") : v) {
  } catch (const std::invalid_argument &) {
    trace += "ctor-failed ";
  }  // implicitly rethrows
};

static int nested(int n) {
  int a = 0, b = 1;
  for (int i = 0; i < n; i++) {
    try {
      try {
        if (i % 3 == 0) throw i;
        a += i;
      } catch (int v) {
        int t = a; a = b; b = t;  // a swap inside a handler
        if (v % 2) throw;
      }
    } catch (int v) {
      b += v * 10;
    }
  }
  return a * 1000 + b;
}

int main() {
  for (int k = 0; k < 5; k++) std::printf("catcher(%d) = %d\n", k, catcher(k));
  std::printf("rethrow = %d %d\n", rethrow_outer(0), rethrow_outer(3));
  std::printf("nothrow = %d\n", nothrow_sum(10));
  try {
    Parser p(9);
    std::printf("unexpected %d\n", p.value);
  } catch (const std::exception &e) {
    std::printf("parser: %s\n", e.what());
  }
  Parser ok(3);
  std::printf("parser ok %d\n", ok.value);
  std::printf("nested = %d\n", nested(10));
  std::printf("live = %d\ntrace = %s\n", live_objects, trace.c_str());
  return 0;
}
