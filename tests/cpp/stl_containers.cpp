// std::vector, std::string, std::map, std::sort, std::unique_ptr and iterators.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

struct Node { int v; std::unique_ptr<Node> next; };

int main() {
  std::vector<int> v;
  for (int i = 0; i < 20; i++) v.push_back((i * 37) % 23);
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::printf("unique sorted size %zu first %d last %d\n", v.size(), v.front(), v.back());
  long sum = 0;
  for (int x : v) sum += x;
  std::printf("sum %ld\n", sum);

  std::string s = "mem2reg";
  s += "-";
  s += std::to_string(2024);
  std::string up;
  for (char c : s) up.push_back(c >= 'a' && c <= 'z' ? char(c - 32) : c);
  std::printf("%s %s find %zu sub %s\n", s.c_str(), up.c_str(), s.find("reg"), s.substr(4, 3).c_str());

  std::map<std::string, int> counts;
  const char *words[] = {"a", "b", "a", "c", "b", "a"};
  for (const char *w : words) counts[w]++;
  for (const auto &kv : counts) std::printf("%s=%d ", kv.first.c_str(), kv.second);
  std::printf("\n");

  std::unique_ptr<Node> head;
  for (int i = 0; i < 5; i++) { auto n = std::make_unique<Node>(); n->v = i; n->next = std::move(head); head = std::move(n); }
  int list_sum = 0;
  for (Node *p = head.get(); p; p = p->next.get()) list_sum = list_sum * 10 + p->v;
  std::printf("list %d\n", list_sum);

  std::vector<std::string> names = {"pear", "fig", "apple", "kiwi"};
  std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) { return a.size() < b.size() || (a.size() == b.size() && a < b); });
  for (const auto &n : names) std::printf("%s ", n.c_str());
  std::printf("\n");
  auto it = std::find_if(v.begin(), v.end(), [](int x) { return x > 10; });
  std::printf("first > 10: %d at %ld\n", *it, (long)(it - v.begin()));
  return 0;
}
