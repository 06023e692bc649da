/* main_w3dlint.c - PLACEHOLDER front end (the platform helper replaces it). */
#include <stdio.h>
int main(void) { puts("w3dlint: not built yet"); return 2; }
