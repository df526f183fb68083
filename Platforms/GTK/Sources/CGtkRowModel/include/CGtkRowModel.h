// The row model is declared in CGtk.h, which Swift imports; this target only implements it.
#ifndef CGTK_ROW_MODEL_H
#define CGTK_ROW_MODEL_H
#endif
