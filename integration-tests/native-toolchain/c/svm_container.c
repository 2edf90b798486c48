/*
 * Container support for Substrate VM images, stubbed: the image reports "not containerized", so heap
 * and processor count follow the host. Run the executables with an explicit -Xmx inside containers.
 */
#include <stddef.h>

#define SUCCESS_IS_NOT_CONTAINERIZED 0 /* ContainerLibrary.SUCCESS_IS_NOT_CONTAINERIZED */

int svm_container_initialize(int version) { (void) version; return SUCCESS_IS_NOT_CONTAINERIZED; }
size_t svm_container_physical_memory(void) { return 0; }
long svm_container_memory_limit_in_bytes(void) { return -1; }
long svm_container_memory_and_swap_limit_in_bytes(void) { return -1; }
long svm_container_memory_soft_limit_in_bytes(void) { return -1; }
long svm_container_memory_usage_in_bytes(void) { return -1; }
long svm_container_memory_max_usage_in_bytes(void) { return -1; }
long svm_container_rss_usage_in_bytes(void) { return -1; }
long svm_container_cache_usage_in_bytes(void) { return -1; }
int svm_container_active_processor_count(void) { return -1; }
