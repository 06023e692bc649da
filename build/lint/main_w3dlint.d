build/lint/main_w3dlint.o: lint/main_w3dlint.c
