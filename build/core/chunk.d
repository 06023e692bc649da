build/core/chunk.o: core/chunk.c core/chunk.h core/arena.h core/finding.h
core/chunk.h:
core/arena.h:
core/finding.h:
