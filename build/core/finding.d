build/core/finding.o: core/finding.c core/finding.h core/arena.h
core/finding.h:
core/arena.h:
