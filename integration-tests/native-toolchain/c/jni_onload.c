/*
 * JNI_OnLoad_<lib> for the JDK libraries the image links. Substrate VM treats them as static (JEP 178)
 * libraries and calls JNI_OnLoad_<lib>; here they are the JDK's shared objects, so each wrapper calls
 * that object's own JNI_OnLoad, if it has one, and reports at least JNI 1.8 as JEP 178 requires.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <jni.h>
#include <stdio.h>
#include <string.h>

typedef jint (*on_load_fn)(JavaVM *, void *);

static jint call_on_load(const char *soname, JavaVM *vm, void *reserved) {
    void *handle = dlopen(soname, RTLD_NOW | RTLD_NOLOAD);
    if (handle == NULL) {
        fprintf(stderr, "ferry native: %s is not loaded: %s\n", soname, dlerror());
        return JNI_ERR;
    }
    jint version = JNI_VERSION_1_8;
    on_load_fn on_load = (on_load_fn) dlsym(handle, "JNI_OnLoad");
    Dl_info info;
    /* dlsym also searches the object's dependencies: only a JNI_OnLoad defined in this very object counts. */
    if (on_load != NULL && dladdr((void *) on_load, &info) != 0 && strstr(info.dli_fname, soname) != NULL) {
        version = on_load(vm, reserved);
        if (version < 0) return version;
        if (version < JNI_VERSION_1_8) version = JNI_VERSION_1_8;
    }
    return version;
}

#define JNI_ON_LOAD_WRAPPER(lib) \
    JNIEXPORT jint JNICALL JNI_OnLoad_##lib(JavaVM *vm, void *reserved) { return call_on_load("lib" #lib ".so", vm, reserved); }

JNI_ON_LOAD_WRAPPER(java)
JNI_ON_LOAD_WRAPPER(nio)
JNI_ON_LOAD_WRAPPER(net)
JNI_ON_LOAD_WRAPPER(zip)
JNI_ON_LOAD_WRAPPER(extnet)
JNI_ON_LOAD_WRAPPER(management_ext)
