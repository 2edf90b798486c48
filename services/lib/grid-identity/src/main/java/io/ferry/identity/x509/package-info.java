/** X.509 certificate and proxy chains (canl) with their VOMS attribute certificates (voms-api-java). */
package io.ferry.identity.x509;
