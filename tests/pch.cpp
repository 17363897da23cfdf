// The object that compiles one kind of test's precompiled header (tests/CMakeLists.txt); no code of its own.
