/* The locale interface Substrate VM's LocaleCHelper compiles against (field names are its @CField names). */
#ifndef SVM_LOCALE_H
#define SVM_LOCALE_H
static const int SVM_LOCALE_INITIALIZATION_USE_DEFAULT = 0;
static const int SVM_LOCALE_INITIALIZATION_SUCCEEDED = 1;
static const int SVM_LOCALE_INITIALIZATION_OUT_OF_MEMORY = 2;

typedef struct {
    char *format_language;
    char *format_script;
    char *format_country;
    char *format_variant;
    char *display_language;
    char *display_script;
    char *display_country;
    char *display_variant;
} svm_locale_props_t;
#endif
