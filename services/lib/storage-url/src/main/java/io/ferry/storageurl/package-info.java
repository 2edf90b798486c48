/** Storage URLs parsed once into one canonical form, so that what is matched is what a storage server acts on. */
package io.ferry.storageurl;
