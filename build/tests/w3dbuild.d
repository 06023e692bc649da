build/tests/w3dbuild.o: tests/w3dbuild.c tests/w3dbuild.h
tests/w3dbuild.h:
