build/tests/check_main.o: tests/check_main.c build/gen/suites.h
build/gen/suites.h:
