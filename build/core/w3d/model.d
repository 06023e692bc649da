build/core/w3d/model.o: core/w3d/model.c core/w3d/model.h \
 core/w3d/../chunk.h core/w3d/../arena.h core/w3d/../finding.h \
 core/w3d/w3d_format.h core/w3d/../cursor.h core/w3d/mesh.h \
 core/w3d/hierarchy.h
core/w3d/model.h:
core/w3d/../chunk.h:
core/w3d/../arena.h:
core/w3d/../finding.h:
core/w3d/w3d_format.h:
core/w3d/../cursor.h:
core/w3d/mesh.h:
core/w3d/hierarchy.h:
