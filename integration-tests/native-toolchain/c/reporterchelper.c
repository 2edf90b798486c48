/* JNI natives of the builder's ProgressReporterCHelper: peak RSS and terminal width for its progress output. */
#include <jni.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

JNIEXPORT jlong JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getPeakRSS0(JNIEnv *env, jclass c) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return -1;
    return (jlong) usage.ru_maxrss * 1024; /* kilobytes on Linux */
}

JNIEXPORT jint JNICALL Java_com_oracle_svm_hosted_ProgressReporterCHelper_getTerminalWindowColumns0(JNIEnv *env, jclass c) {
    struct winsize w;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) != 0) return -1;
    return w.ws_col;
}
