// Placeholder; replaced by the CLI.
#include <cstdio>
int main() { std::puts("tritium " TRITIUM_VERSION); return 0; }
