int main() { return 0; } // replaced when the stages it wires exist
