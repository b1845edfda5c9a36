// Virtual dispatch: abstract bases, overriding, multiple inheritance, virtual destructors,
// dynamic_cast, calls through base pointers inside loops.
#include <cstdio>
#include <memory>
#include <vector>

static int destroyed;

struct Animal {
  virtual ~Animal() { destroyed++; }
  virtual const char *name() const = 0;
  virtual int legs() const { return 4; }
};
struct Dog : Animal { const char *name() const override { return "dog"; } };
struct Bird : Animal {
  const char *name() const override { return "bird"; }
  int legs() const override { return 2; }
};
struct Snake final : Animal {
  const char *name() const override { return "snake"; }
  int legs() const override { return 0; }
};

struct Printable { virtual ~Printable() = default; virtual int print_id() const = 0; };
struct Robot : Animal, Printable {
  int id;
  explicit Robot(int i) : id(i) {}
  const char *name() const override { return "robot"; }
  int legs() const override { return id % 3 + 2; }
  int print_id() const override { return id; }
};

static int count_legs(const std::vector<std::unique_ptr<Animal>> &zoo) {
  int total = 0;
  for (const auto &a : zoo) total += a->legs();
  return total;
}

int main() {
  {
    std::vector<std::unique_ptr<Animal>> zoo;
    zoo.emplace_back(new Dog);
    zoo.emplace_back(new Bird);
    zoo.emplace_back(new Snake);
    zoo.emplace_back(new Robot(7));
    for (const auto &a : zoo) std::printf("%s has %d legs\n", a->name(), a->legs());
    std::printf("total legs %d\n", count_legs(zoo));
    int robots = 0, printable_sum = 0;
    for (const auto &a : zoo) {
      if (auto *r = dynamic_cast<Robot *>(a.get())) robots++;
      if (auto *p = dynamic_cast<const Printable *>(a.get())) printable_sum += p->print_id();
    }
    std::printf("robots %d printable %d\n", robots, printable_sum);
  }
  std::printf("destroyed %d\n", destroyed);
  Robot r(5);
  Printable &pr = r;
  Animal &an = r;
  std::printf("robot via bases %d %s %d\n", pr.print_id(), an.name(), an.legs());
  return 0;
}
