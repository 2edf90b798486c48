/*
 * CPU feature detection for Substrate VM images on amd64 (stands in for GraalVM's libchelper part).
 * The CPUFeatures struct comes from the generated include/amd64cpufeatures.h: one byte per feature,
 * in whatever order the header lists them, because the builder reads the offsets from the header.
 */
#include <cpuid.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "amd64cpufeatures.h"

static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t) hi << 32) | lo;
}

void determineCPUFeatures(CPUFeatures *f) {
    unsigned a, b, c, d, max;
    memset(f, 0, sizeof(*f));
    max = __get_cpuid_max(0, NULL);
    if (max < 1) return;
    __cpuid(1, a, b, c, d);
    f->fCX8 = (d >> 8) & 1;  f->fCMOV = (d >> 15) & 1; f->fMMX = (d >> 23) & 1;
    f->fFXSR = (d >> 24) & 1; f->fSSE = (d >> 25) & 1; f->fSSE2 = (d >> 26) & 1;
    f->fHT = (d >> 28) & 1;   f->fTSC = (d >> 4) & 1;   f->fFLUSH = (d >> 19) & 1;
    f->fSSE3 = c & 1;         f->fCLMUL = (c >> 1) & 1; f->fSSSE3 = (c >> 9) & 1;
    f->fFMA = (c >> 12) & 1;  f->fSSE4_1 = (c >> 19) & 1; f->fSSE4_2 = (c >> 20) & 1;
    f->fPOPCNT = (c >> 23) & 1; f->fAES = (c >> 25) & 1; f->fF16C = (c >> 29) & 1;
    f->fHV = (c >> 31) & 1;
    /* AVX counts only when the OS saves the YMM state (OSXSAVE and XCR0 bits 1-2). */
    int os_avx = ((c >> 27) & 1) && ((read_xcr0() & 6) == 6);
    f->fAVX = os_avx && ((c >> 28) & 1);
    f->fVZEROUPPER = f->fAVX;
    if (max >= 7) {
        __cpuid_count(7, 0, a, b, c, d);
        f->fBMI1 = (b >> 3) & 1; f->fAVX2 = os_avx && ((b >> 5) & 1); f->fBMI2 = (b >> 8) & 1;
        f->fERMS = (b >> 9) & 1; f->fADX = (b >> 19) & 1; f->fFLUSHOPT = (b >> 23) & 1;
        f->fCLWB = (b >> 24) & 1; f->fSHA = (b >> 29) & 1;
        f->fGFNI = (c >> 8) & 1; f->fRDPID = (c >> 22) & 1; f->fFSRM = (d >> 4) & 1;
        f->fSERIALIZE = (d >> 14) & 1;
        /* AVX-512 and AVX10 stay off: they only enable optional fast paths. */
    }
    __cpuid(0x80000000, a, b, c, d);
    if (a >= 0x80000001) {
        __cpuid(0x80000001, a, b, c, d);
        f->fLZCNT = (c >> 5) & 1; f->fSSE4A = (c >> 6) & 1; f->fAMD_3DNOW_PREFETCH = (c >> 8) & 1;
        f->fRDTSCP = (d >> 27) & 1;
    }
    if (a >= 0x80000007) {
        __cpuid(0x80000007, a, b, c, d);
        f->fTSCINV_BIT = (d >> 8) & 1;
        f->fTSCINV = f->fTSCINV_BIT;
    }
}

/* The image carries one byte per feature: 0xFE where the build required it, 0xFF where not.
 * OR-ing in the runtime byte (0 or 1) gives 0xFF exactly when every requirement is met. */
int checkCPUFeatures(const uint8_t *build_time_mask) {
    CPUFeatures f;
    determineCPUFeatures(&f);
    const uint8_t *runtime = (const uint8_t *) &f;
    for (size_t i = 0; i < sizeof(f); i++) {
        if ((uint8_t) (build_time_mask[i] | runtime[i]) != 0xFF) return 1;
    }
    return 0;
}

int checkCPUFeaturesOrExit(const uint8_t *build_time_mask, const char *message) {
    if (checkCPUFeatures(build_time_mask) != 0) {
        fputs(message, stderr);
        fputc('\n', stderr);
        exit(1);
    }
    return 0;
}
