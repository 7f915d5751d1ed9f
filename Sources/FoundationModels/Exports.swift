@_exported import struct Foundation.Locale
