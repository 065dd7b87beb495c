// nicd-conf-man NICD_CONF DATE VERSION > nicd.conf.5 — a build step, not installed.
#include "conf_manpage.hpp"

#include <fstream>
#include <iostream>
#include <sstream>

int main(int argc, char** argv)
{
    if (argc != 4) {
        std::cerr << "usage: nicd-conf-man NICD_CONF DATE VERSION\n";
        return 2;
    }
    std::ifstream in(argv[1]);
    if (!in) {
        std::cerr << "nicd-conf-man: cannot read " << argv[1] << "\n";
        return 1;
    }
    std::stringstream text;
    text << in.rdbuf();
    auto page = nicd::manpage::renderConfManpage(text.str(), argv[2], argv[3]);
    for (const auto& e : page.errors)
        std::cerr << argv[1] << ": " << e << "\n";
    if (!page.errors.empty())
        return 1;
    std::cout << page.roff;
    return 0;
}
