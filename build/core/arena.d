build/core/arena.o: core/arena.c core/arena.h
core/arena.h:
