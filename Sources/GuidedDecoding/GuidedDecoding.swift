enum GuidedDecodingModule {}
