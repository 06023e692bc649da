build/core/w3d/w3d_format.o: core/w3d/w3d_format.c core/w3d/w3d_format.h \
 core/w3d/../chunk.h core/w3d/../arena.h core/w3d/../finding.h \
 core/w3d/../cursor.h
core/w3d/w3d_format.h:
core/w3d/../chunk.h:
core/w3d/../arena.h:
core/w3d/../finding.h:
core/w3d/../cursor.h:
