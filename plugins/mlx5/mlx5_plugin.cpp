#include <nicd/plugin/declare.h>
