/// A token id in a model's vocabulary (llama.cpp's `llama_token`).
public typealias Token = Int32
