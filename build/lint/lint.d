build/lint/lint.o: lint/lint.c lint/lint.h lint/../core/chunk.h \
 lint/../core/arena.h lint/../core/finding.h lint/../core/w3d/model.h \
 lint/../core/w3d/../chunk.h lint/../core/w3d/w3d_format.h \
 lint/../core/w3d/../cursor.h lint/../core/w3d/mesh.h \
 lint/../core/w3d/hierarchy.h lint/catalog.h lint/../core/finding.h \
 lint/config.h lint/checks.h
lint/lint.h:
lint/../core/chunk.h:
lint/../core/arena.h:
lint/../core/finding.h:
lint/../core/w3d/model.h:
lint/../core/w3d/../chunk.h:
lint/../core/w3d/w3d_format.h:
lint/../core/w3d/../cursor.h:
lint/../core/w3d/mesh.h:
lint/../core/w3d/hierarchy.h:
lint/catalog.h:
lint/../core/finding.h:
lint/config.h:
lint/checks.h:
