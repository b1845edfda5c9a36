// <iostream> and <sstream>: static initialisation of the standard streams (global ctors run
// by lli), manipulators, string streams parsing numbers in a loop.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

int main() {
  std::ostringstream os;
  for (int i = 1; i <= 5; i++) os << std::setw(4) << i * i << (i < 5 ? "," : "\n");
  std::cout << os.str();
  std::istringstream is("3 1 4 1 5 9 2 6");
  int v, sum = 0, prev = 0, rises = 0;
  while (is >> v) { sum += v; if (v > prev) rises++; prev = v; }
  std::cout << "sum " << sum << " rises " << rises << '\n';
  std::cout << std::fixed << std::setprecision(3) << 3.14159265 << ' ' << std::hex << 255 << std::dec << '\n';
  std::string line = "a,b,,c";
  std::stringstream ss(line);
  std::string tok;
  int n = 0;
  while (std::getline(ss, tok, ',')) std::cout << "[" << tok << "]" << (++n % 2 ? "" : "\n");
  std::cout << std::endl;
  return 0;
}
